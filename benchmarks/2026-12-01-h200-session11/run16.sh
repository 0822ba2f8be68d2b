#!/usr/bin/env bash
# Session 11 final: suites on the final kernels, then every Cholesky and QR case against cuSOLVER.
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" "$OUT/tests.log" | head
bash scripts/gpu-run.sh bench --filter "potrf 1x|potrf 64x|potrf 256x|potrf 1024x|potrf 4096x|cholesky_solve|solve_triangular|gemm 4096|geqrf|orgqr 1x|orgqr 2x|qr reduced 1x|qr reduced 2x" --samples 7 > "$OUT/bench-run.log" 2>&1
sed -n '/cuSOLVER anchor/,$p' "$OUT/bench-run.log" | cut -c1-100
