#!/usr/bin/env bash
# Session 26, run 3: with SOLVE_TILES (64 × 32 vector tiles) the default solve GEMM, the whole
# Cholesky suite on the H200, then `bench --solve-sweep` against other tilings (on fewer
# shapes). Carry: .gpu with bench.xz and cholesky_tests.xz
# (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 400 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky_tests.log | head -24
timeout 130 /tmp/bench --solve-sweep --samples 5 --solve-shapes 1x1024,1x4096,1x16384,64x1024,256x256 > $OUT/solve-sweep.log 2>&1; echo "solve-sweep rc=$?"
grep -v "^\s*$" $OUT/solve-sweep.log | tail -16
