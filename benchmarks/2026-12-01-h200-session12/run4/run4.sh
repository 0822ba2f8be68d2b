#!/usr/bin/env bash
# Session 12, run 4 (final tree): geqrf and Cholesky suites (the thin 32×128 GEMM tiles run in
# both), the geqrf sweep with and without the thin tiles, then every geqrf / orgqr / qr(reduced)
# case against cuSOLVER on the same inputs.
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" "$OUT/tests.log" | head
timeout 100 /tmp/bench --qr-sweep --samples 5 > "$OUT/qr-sweep.log" 2>&1; echo "qr sweep rc=$?"
cat "$OUT/qr-sweep.log"
timeout 230 bash scripts/gpu-run.sh bench --filter "orgqr|qr reduced|geqrf" --samples 7 > "$OUT/bench-run.log" 2>&1
sed -n '/cuSOLVER anchor/,$p' "$OUT/bench-run.log" | grep -v "^tsqr" | cut -c1-110
