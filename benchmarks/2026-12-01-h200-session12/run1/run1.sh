#!/usr/bin/env bash
# Session 12, run 1: geqrf suite with and without the one-barrier panel kernel (left
# uncommitted by the session before); householder_product sweep (block width × GEMM tiles);
# geqrf sweep (panel row groups); orgqr / qr / geqrf rows against cuSOLVER; ncu per-kernel
# times of orgqr 1×4096².
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" "$OUT/tests.log" | head
xz -dc .gpu/geqrf_nopanel_tests.xz > /tmp/geqrf_nopanel_tests && chmod +x /tmp/geqrf_nopanel_tests
/tmp/geqrf_nopanel_tests --test-threads=1 > "$OUT/nopanel_tests.log" 2>&1; echo "nopanel tests rc=$?"
grep -E "test result|FAILED|panicked" "$OUT/nopanel_tests.log" | head
timeout 100 /tmp/bench --orgqr-sweep --samples 5 > "$OUT/orgqr-sweep.log" 2>&1; echo "orgqr sweep rc=$?"
cat "$OUT/orgqr-sweep.log"
timeout 110 /tmp/bench --qr-sweep --samples 5 > "$OUT/qr-sweep.log" 2>&1; echo "qr sweep rc=$?"
cat "$OUT/qr-sweep.log"
timeout 190 bash scripts/gpu-run.sh bench --filter "orgqr|qr reduced|geqrf" --samples 7 > "$OUT/bench-run.log" 2>&1
sed -n '/cuSOLVER anchor/,$p' "$OUT/bench-run.log" | cut -c1-110
timeout 80 ncu --metrics gpu__time_duration.sum --launch-count 1600 /tmp/bench --filter "orgqr 1x4096x4096" --samples 1 --quick > /tmp/ncu-orgqr.txt 2>&1
python3 scripts/ncu_sum.py /tmp/ncu-orgqr.txt --by-grid --call unit_lower 2 > "$OUT/ncu-orgqr-4096.txt"; echo "== ncu orgqr 1x4096²"; cat "$OUT/ncu-orgqr-4096.txt"
