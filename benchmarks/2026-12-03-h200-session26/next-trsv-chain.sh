#!/usr/bin/env bash
# For the next session (not run in session 26: the device budget was spent). Session 26's
# last commits changed trsm/trsv.rs (the one-launch substitution `trsv_chain`, and the step
# kernel's loads and products moved into shared helpers) after the suite's last H200 run, so
# first the whole Cholesky suite (its CUDA `triangular_solves` runs the chain too), then
# `bench --trsv-sweep` (GEMM recursion / per-block launches / one launch). If the chain wins,
# make it the GPU default where `Hardware::cube_handoff` holds.
# Carry: .gpu with bench.xz and cholesky_tests.xz (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 420 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | head -20
timeout 150 /tmp/bench --trsv-sweep --samples 5 > $OUT/trsv-sweep.log 2>&1; echo "trsv-sweep rc=$?"
grep -v "^\s*$" $OUT/trsv-sweep.log | head -14
