#!/usr/bin/env bash
# Session 51, call B: why the plane path is slow, and the whole Cholesky suite on the final
# code (leaf_plane off by default; owed since session 50's 013d5e9).
# 1. The whole Cholesky suite: graph_replay alone (it captures a stream, so no other test may
#    launch meanwhile), the rest on four test threads (their kernels' compiles overlap).
# 2. Time left: ncu warp-state and scheduler sections of the first diagonal block of potrf
#    4096 (the standalone factor-only leaf), plane path against the sub-block phases.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 60 /tmp/cholesky_tests --test-threads=1 graph_replay > $OUT/tests.log 2>&1
echo "graph_replay rc=$? t=$SECONDS" | tee -a $R
timeout 330 /tmp/cholesky_tests --test-threads=4 --skip graph_replay >> $OUT/tests.log 2>&1
echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
for v in on off; do
  [ $SECONDS -gt 380 ] && break
  timeout 40 ncu --section WarpStateStats --section SchedulerStats --section LaunchStats \
    -k regex:blocked_leaf -c 1 /tmp/bench --filter "potrf 1x4096" --samples 1 \
    --potrf-leaf-plane $v > $OUT/ncu-leaf-$v.log 2>&1
  echo "ncu leaf plane $v rc=$? t=$SECONDS" | tee -a $R
  grep -E "Duration|Registers Per|Warp Cycles Per Issued|Stall|Issued Warp|No Eligible|Active Warps" $OUT/ncu-leaf-$v.log | head -14 | tee -a $R
done
