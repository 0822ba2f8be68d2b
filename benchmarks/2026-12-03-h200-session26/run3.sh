#!/usr/bin/env bash
# Session 26, run 3: with SOLVE_TILES (64 × 32 vector tiles) the default solve GEMM, the whole
# Cholesky suite on the H200, then potrf and the solves against cuSOLVER (PyTorch) on the same
# inputs, then `bench --solve-sweep` against other tilings (fewer shapes) in what time is
# left. Carry: .gpu with bench.xz and cholesky_tests.xz
# (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
start=$(date +%s)
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 380 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky_tests.log | head -24
F="potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384|potrf 1024x64|potrf 64x1024|solve"
timeout 100 /tmp/bench --filter "$F" --samples 5 --json $OUT/potrf.json > $OUT/bench-potrf.log 2>&1; echo "bench rc=$?"
timeout 60 python3 .gpu/torch_anchor.py $OUT/potrf.json --out $OUT/potrf-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "potrf|solve" $OUT/anchor.log | head -16
left=$(( 585 - ($(date +%s) - start) ))
[ $left -gt 20 ] && { timeout $left /tmp/bench --solve-sweep --samples 5 --solve-shapes 1x1024,1x4096,64x1024,256x256 > $OUT/solve-sweep.log 2>&1; echo "solve-sweep rc=$? (limit $left s)"; }
grep -v "^\s*$" $OUT/solve-sweep.log | tail -14
