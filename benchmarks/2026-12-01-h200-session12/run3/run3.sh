#!/usr/bin/env bash
# Session 12, run 3 (final QR defaults): geqrf suite, then every geqrf / orgqr / qr(reduced)
# case against cuSOLVER on the same inputs.
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" "$OUT/tests.log" | head
timeout 300 bash scripts/gpu-run.sh bench --filter "orgqr|qr reduced|geqrf" --samples 7 > "$OUT/bench-run.log" 2>&1
sed -n '/cuSOLVER anchor/,$p' "$OUT/bench-run.log" | grep -v "^tsqr" | cut -c1-110
