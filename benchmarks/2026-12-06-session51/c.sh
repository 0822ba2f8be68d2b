#!/usr/bin/env bash
# Session 51, call C (what the budget left after failed starts allows): the Cholesky suite on
# the final code, without the three tests call A ran on the H200 (leaf_kernels,
# step_substitution, fused_syrk_leaf), on four test threads (their compiles overlap), then
# graph_replay alone (it captures a stream, so no other test may launch meanwhile).
# `bash c.sh SECONDS`: the whole call's limit. Pack first: TESTS="cholesky" BENCH=1 bash
# scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
LIMIT=${1:-300}
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
left() { local l=$((LIMIT - SECONDS - ${1:-0})); [ $l -lt 1 ] && l=1; echo $l; }
timeout $(left 45) /tmp/cholesky_tests --test-threads=4 --skip graph_replay --skip leaf_kernels \
  --skip step_substitution --skip fused_syrk_leaf > $OUT/tests.log 2>&1
echo "suite rc=$? t=$SECONDS" | tee -a $R
timeout $(left 5) /tmp/cholesky_tests --test-threads=1 graph_replay >> $OUT/tests.log 2>&1
echo "graph_replay rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
