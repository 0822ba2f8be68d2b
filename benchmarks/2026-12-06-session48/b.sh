#!/usr/bin/env bash
# Session 48 call B (pack: `TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`, carry [".gpu"]):
# the tensor-core update of the fused steps with its C loads grouped before its stores (call A
# found `w[·] -= x` element by element made 16 dependent round trips per lane), now the
# default where the device runs it. 1. potrf 1024 … 16384, default (tensor cores) against
# `--potrf-fused-mma off` (SIMT), alternated, two rounds; 2. ncu per-launch times of one potrf
# 4096; 3. the whole Cholesky suite on the new default.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
for r in 1 2; do
  for v in default off; do
    flags=(); [ $v != default ] && flags=(--potrf-fused-mma $v)
    echo "== $v-$r" >> $B
    timeout 60 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
timeout 40 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 130 /tmp/bench --filter "potrf 1x4096" --samples 1 > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
xz -T4 $OUT/ncu-potrf.log
# One test thread: `graph_replay` captures a stream, so no other test may launch meanwhile.
left=$((590 - SECONDS))
timeout $left /tmp/cholesky_tests --test-threads=1 > $OUT/tests.log 2>&1
echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
