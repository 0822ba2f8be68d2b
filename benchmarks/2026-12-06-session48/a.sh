#!/usr/bin/env bash
# Session 48 call A: session 47's next/fused-mma.sh as prepared.
# Prepared in session 47, never run (no device time left): the fused steps' update cubes on
# tensor cores (`CholeskyParams::fused_mma`, `--potrf-fused-mma on`; default off). Pack on the
# tree first (`TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`), carry [".gpu"]:
# 1. `fused_syrk_leaf` (now with `fused_mma`'s cases: orders 128, 260, 320 lower and upper,
#    and a batch with failing pivots at 196, each also with the diagonal block's cube on
#    tensor cores, `fused_mma_leaf`) and `large_matrix`;
# 2. potrf at 1024 … 16384 with the tensor-core update (`on`), also for the block's cube
#    (`leaf`), against the default, alternated, two rounds;
# 3. ncu per-launch times of one potrf 4096 call with it (session 47's default: fused steps
#    58.6 µs first, 22.6 µs floor, 1977 µs in all).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 150 /tmp/cholesky_tests --test-threads=1 fused_syrk_leaf large_matrix > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
for r in 1 2; do
  for v in default on leaf; do
    flags=(); [ $v != default ] && flags=(--potrf-fused-mma $v)
    echo "== $v-$r" >> $B
    timeout 60 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 300 /tmp/bench --filter "potrf 1x4096" --samples 1 --potrf-fused-mma on > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf mma rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
xz -T4 $OUT/ncu-potrf.log $OUT/tests.log
