#!/usr/bin/env bash
# Prepared in session 48 for the next session (pack on the tree first:
# `TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`; carry [".gpu"]):
#   bash benchmarks/2026-12-06-session48/next/next.sh rows    # ~200 s
# 1. `CholeskyParams::fused_mma_rows` (host-side only; the kernels are call B's): the
#    tensor-core update only in fused steps with at least N update rows, against the default
#    (every step of regions of order >= 4096). Session 48's ncu put the late steps' floor at
#    24 µs with the tensor-core tiles against 22.6 with the SIMT ones, and at 2048 and 1024 the
#    SIMT tiles won by 2 %. Alternated, two rounds.
# 2. ncu per-launch times of one potrf 4096 with the better N.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x4096|potrf 1x8192|potrf 1x16384"
for r in 1 2; do
  for v in 0 1024 2048 3072; do
    flags=(); [ $v != 0 ] && flags=(--potrf-fused-mma-rows $v)
    echo "== $v-$r" >> $B
    timeout 50 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench rows $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
timeout 40 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 130 /tmp/bench --filter "potrf 1x4096" --samples 1 --potrf-fused-mma-rows ${ROWS:-2048} > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
xz -T4 $OUT/ncu-potrf.log
