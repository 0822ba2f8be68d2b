#!/usr/bin/env bash
# Session 33 run 4: the six Cholesky tests that run 3's 380 s limit cut (leaf_kernels was
# running), on the same binaries, on the warm machine. .gpu/ as run 3.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for t in leaf_kernels nonfinite_and_errors right_looking_cutoff sizes_straddle_thresholds strided_views triangular_solves; do
  timeout 200 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/$t.log | cut -c1-300
done
