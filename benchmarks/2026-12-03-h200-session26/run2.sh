#!/usr/bin/env bash
# Session 26, run 2: tilings of the GEMM that applies a diagonal block's inverse in place
# (CholeskyParams::solve_gemm; each right-looking step's panel, the TRSM leaves):
# `bench --solve-sweep` (potrf and solve_triangular 4096² × 128), after the one test that
# runs a narrow tiling. Carry: .gpu with bench.xz and cholesky_tests.xz
# (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 60 /tmp/cholesky_tests --test-threads=1 right_looking_cutoff > $OUT/rl-test.log 2>&1; echo "right_looking_cutoff rc=$?"
grep -E "^test |test result|panicked" $OUT/rl-test.log | head -4
timeout 300 /tmp/bench --solve-sweep --samples 5 > $OUT/solve-sweep.log 2>&1; echo "solve-sweep rc=$?"
grep -v "^\s*$" $OUT/solve-sweep.log | tail -18
