#!/usr/bin/env bash
# For the next session (not run in session 26: the device budget was spent): the one-launch
# block substitution (CholeskyParams::trsv_chain, default off) on the H200 — its test, then
# `bench --trsv-sweep` (GEMM recursion / per-block launches / one launch). If it wins, make
# it the default where `Hardware::cube_handoff` holds and rerun the whole suite.
# Carry: .gpu with bench.xz and cholesky_tests.xz (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 120 /tmp/cholesky_tests --test-threads=1 triangular_solves cholesky_solve_and_inverse > $OUT/trsv-tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|panicked" $OUT/trsv-tests.log | head -4
timeout 240 /tmp/bench --trsv-sweep --samples 5 > $OUT/trsv-sweep.log 2>&1; echo "trsv-sweep rc=$?"
grep -v "^\s*$" $OUT/trsv-sweep.log | head -14
