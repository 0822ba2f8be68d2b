#!/usr/bin/env bash
# Prepared in session 52 for the next session, not run (no device time left). Pack on the tree
# first (`TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`), carry [".gpu"]:
#   bash benchmarks/2026-12-06-session52/b.sh                  # ~380 s: the whole Cholesky suite
#                                                              # on the new defaults (owed)
#   bash benchmarks/2026-12-06-session52/next.sh sweep         # ~300 s
# sweep: with the sub-blocks no longer inverted (`leaf_subst`, default since session 52), are
#   sub-blocks of 16 still the best? `bench --leaf-sweep` times leaves of 64 with sub-blocks of
#   8, 16 and 32 and K trips; then ncu per launch of potrf 4096 (where the fused steps' floor
#   and the first steps now sit).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
case "${1:-sweep}" in
  sweep)
    timeout 300 /tmp/bench --leaf-sweep --samples 5 > $OUT/leaf-sweep.log 2>&1
    echo "leaf sweep rc=$? t=$SECONDS" | tee -a $R
    tail -30 $OUT/leaf-sweep.log | tee -a $R
    timeout 90 ncu --metrics gpu__time_duration.sum -c 140 /tmp/bench --filter "potrf 1x4096" \
      --samples 1 > $OUT/ncu-potrf.log 2>&1
    echo "ncu rc=$? t=$SECONDS" | tee -a $R
    python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid 2>&1 | tail -30 | tee -a $R
    xz -T4 $OUT/ncu-potrf.log ;;
esac
