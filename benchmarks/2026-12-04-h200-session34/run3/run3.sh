#!/usr/bin/env bash
# Session 34 run 3: batched_small again (run 2's 200 s limit cut it), then the rest of the
# Cholesky suite (run 2 ran the five other tests that reach the batched small kernels), same
# binaries. .gpu/ as run 2.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 280 /tmp/cholesky_tests --test-threads=1 --exact cuda::batched_small > $OUT/batched_small.log 2>&1; echo "batched_small rc=$?"
grep -E "test result|panicked" $OUT/batched_small.log | cut -c1-300
timeout 290 /tmp/cholesky_tests --test-threads=1 --skip batched_small --skip graph_replay --skip info_reports_first_failure --skip nonfinite_and_errors --skip strided_views --skip sizes_straddle_thresholds > $OUT/cholesky_rest.log 2>&1; echo "rest rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_rest.log | cut -c1-300
