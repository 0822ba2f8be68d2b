#!/usr/bin/env bash
# Session 27, run 1 (2edf6bd plus the inv_rhs knob, off by default): the whole Cholesky suite on the final trsm/trsv.rs (the
# one-launch substitution `trsv_chain` included in CUDA's `triangular_solves`), then
# `bench --trsv-sweep` (GEMM recursion / per-block launches / one launch). Carry: .gpu with bench.xz and
# cholesky_tests.xz (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 400 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | head -20
timeout 150 /tmp/bench --trsv-sweep --samples 5 > $OUT/trsv-sweep.log 2>&1; echo "trsv-sweep rc=$?"
grep -v "^\s*$" $OUT/trsv-sweep.log | head -12
