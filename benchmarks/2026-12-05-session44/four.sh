#!/usr/bin/env bash
# Session 44, call four (carry .gpu/cholesky_tests.xz; Cholesky kernels as in session 43):
# the Cholesky tests that had not run on session 43's default (fused steps staged, late C),
# except leaf_kernels, batched_small and gemm_long_k (kernels that default does not touch),
# one thread (graph_replay captures a stream), cut at 170 s (the device time left).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
xz -dc .gpu/cholesky_tests.xz > /tmp/cholesky_tests && chmod +x /tmp/cholesky_tests
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 170 /tmp/cholesky_tests --test-threads=1 conditioning extreme_scaling info_reports_first_failure nonfinite_and_errors \
  strided_views cholesky_solve_and_inverse right_looking_cutoff graph_replay copy_modes \
  inverse_blocks > $OUT/tests.log 2>&1
echo "cholesky tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-160 | tee -a $R
xz -9 $OUT/tests.log
