#!/usr/bin/env bash
# Session 13, run 4 (little device time left): the sub-blocks' inverses by the whole cube (the
# default in this build) against the plane's column sweeps (nosi); then the Cholesky suite one
# test at a time, those that run the diagonal-block kernel first (QR unchanged since run 3).
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -f .gpu/geqrf_tests.xz
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 45 /tmp/bench --leaf-sweep --quick --samples 3 2>&1 | tee $OUT/leaf-sweep.log
for t in leaf_kernels fused_syrk_leaf sizes_straddle_thresholds info_reports_first_failure cholesky_solve_and_inverse triangular_solves conditioning right_looking_cutoff large_matrix batched_small strided_views nonfinite_and_errors graph_replay gemm_views gemm_long_k; do
  s=$(date +%s.%N)
  /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/t.log 2>&1; rc=$?
  echo "$t rc=$rc $(grep -E 'test result' $OUT/t.log | cut -c1-40) $(echo "$(date +%s.%N) - $s" | bc) s" | tee -a $OUT/cholesky_tests.log
  grep -E "panicked|FAILED" $OUT/t.log | head -5 | tee -a $OUT/cholesky_tests.log
done
rm -f $OUT/t.log
