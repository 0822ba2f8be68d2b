#!/usr/bin/env bash
# Session 47, call A (carry [".gpu"]: bench.xz, geqrf_tests.xz and cholesky_tests.xz packed on
# 887141c, `TESTS="geqrf cholesky" BENCH=1 bash scripts/gpu-pack.sh`): session 46's three.sh
# (`product_regs` with the slice fix; the batched qr_v2 shapes with the register product
# kernel against the default; the tall-panel grid rule against the default), then the 13
# Cholesky tests owed since session 43, in the time left.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
OUT=$OUT bash benchmarks/2026-12-06-session46/three.sh
left=$((570 - SECONDS))
timeout $left /tmp/cholesky_tests --test-threads=1 conditioning extreme_scaling \
  info_reports_first_failure nonfinite_and_errors strided_views cholesky_solve_and_inverse \
  right_looking_cutoff graph_replay copy_modes inverse_blocks leaf_kernels batched_small \
  gemm_long_k > $OUT/ctests.log 2>&1
echo "cholesky tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/ctests.log | cut -c1-160 | tee -a $R
xz -9 $OUT/ctests.log $OUT/tests.log
