#!/usr/bin/env bash
# Session 27, run 4: the new defaults (trsv_chain wherever cubes hand data to each other;
# inv_rhs 8 for single matrices on GPUs) through the tests that take them, and gemm_views
# again, which failed in run 3 with CUDA error 900 (stream capture unsupported) while
# graph_replay captured a graph on another test thread (--test-threads=3 there).
# Carry: .gpu with cholesky_tests.xz (TESTS=cholesky BENCH=0 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for t in gemm_views inverse_blocks triangular_solves cholesky_solve_and_inverse strided_views nonfinite_and_errors; do
  timeout 150 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "^test |panicked" $OUT/$t.log | head -3
done
