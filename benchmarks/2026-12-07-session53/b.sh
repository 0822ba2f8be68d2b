#!/usr/bin/env bash
# Session 53, call B: the whole Cholesky suite (owed since session 52: its new defaults
# `leaf_subst` and `fused_tri_grid` had only run as variants), with this session's `dataflow`
# test. graph_replay alone (it captures a stream), the rest on four test threads.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 60 /tmp/cholesky_tests --test-threads=1 graph_replay > $OUT/tests.log 2>&1
echo "graph_replay rc=$? t=$SECONDS" | tee -a $R
timeout $((${LIMIT:-560} - SECONDS)) /tmp/cholesky_tests --test-threads=4 --skip graph_replay ${SKIP:-} >> $OUT/tests.log 2>&1
echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
