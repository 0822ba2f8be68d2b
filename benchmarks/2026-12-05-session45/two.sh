#!/usr/bin/env bash
# Session 45, call two (carry .gpu: bench.xz and cholesky_tests.xz of the tree with
# QrParams::lookahead_c_first; the Cholesky kernels are session 43's): the 13 Cholesky tests
# that have not run on a GPU on session 43's default (fused steps staged, late C), then the
# cuSOLVER anchor (PyTorch, same inputs) if time is left.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
for b in bench cholesky_tests; do xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 420 /tmp/cholesky_tests --test-threads=2 conditioning extreme_scaling \
  info_reports_first_failure nonfinite_and_errors strided_views cholesky_solve_and_inverse \
  right_looking_cutoff graph_replay copy_modes inverse_blocks leaf_kernels batched_small \
  gemm_long_k > $OUT/tests.log 2>&1
echo "cholesky tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-160 | tee -a $R
xz -9 $OUT/tests.log
left=$((570 - SECONDS))
if [ $left -gt 60 ]; then
  F="potrf 1x4096|potrf 1x1024|geqrf 1x4096x4096|geqrf 32x512x512"
  timeout $left bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/anchor-run.log 2>&1
  echo "bench+anchor rc=$? t=$SECONDS" | tee -a $R; tail -8 $OUT/anchor.log | tee -a $R
fi
