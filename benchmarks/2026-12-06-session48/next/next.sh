#!/usr/bin/env bash
# Prepared in session 48 for the next session, not run (no device time left). Pack on the tree
# first (`TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`), carry [".gpu"], ~400 s:
#   bash benchmarks/2026-12-06-session48/next/next.sh
# 1. `fused_syrk_leaf` (its `fused_mma` part now also runs `panel_mma`, alone and with the
#    tensor-core update, at orders 128, 198 (rows not 4-vectors: the GEMM fallback), 260 and
#    320, lower and upper, and the failing-pivot batch). `panel_mma` has run on no GPU.
# 2. potrf 4096 / 8192 / 16384, alternated, two rounds: the default (tensor-core update in
#    regions of order >= 4096); `--potrf-panel-mma on` (the steps' panel solve on tensor
#    cores instead of the TRSM GEMM: 5.3 µs a step in session 48's ncu); `--potrf-fused-mma-rows
#    2048` (the tensor-core update only in steps of at least 2048 update rows: the late steps'
#    floor was 24 µs with it against 22.6 without); both.
# 3. ncu per-launch times of one potrf 4096 with the panel solve on tensor cores.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 200 /tmp/cholesky_tests --test-threads=1 fused_syrk_leaf > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
P="potrf 1x4096|potrf 1x8192|potrf 1x16384"
for r in 1 2; do
  for v in default panel rows both; do
    case $v in
      default) flags=() ;;
      panel) flags=(--potrf-panel-mma on) ;;
      rows) flags=(--potrf-fused-mma-rows 2048) ;;
      both) flags=(--potrf-panel-mma on --potrf-fused-mma-rows 2048) ;;
    esac
    echo "== $v-$r" >> $B
    timeout 50 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
timeout 40 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 130 /tmp/bench --filter "potrf 1x4096" --samples 1 --potrf-panel-mma on > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf panel rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
xz -T4 $OUT/ncu-potrf.log $OUT/tests.log
