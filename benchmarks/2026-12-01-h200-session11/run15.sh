#!/usr/bin/env bash
# Session 11: fast rsqrt, small kernel trips, GEMM epilogue loads batched: suites, sweep, anchors.
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" "$OUT/tests.log" | head
/tmp/bench --small-sweep --samples 9 2>&1 | tee "$OUT/small-sweep.log" | tail -9
bash scripts/gpu-run.sh bench --filter "potrf 1x|potrf 64x|potrf 256x|potrf 1024x|potrf 4096x|geqrf|cholesky_solve 1x4096|orgqr 1x4096|qr reduced 1x4096" --samples 7 > "$OUT/bench-run.log" 2>&1
sed -n '/cuSOLVER anchor/,$p' "$OUT/bench-run.log" | cut -c1-100
