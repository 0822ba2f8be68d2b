#!/usr/bin/env bash
# Session 12, run 2: geqrf suite (T kernel with padded rows, block width by rows); orgqr sweep
# (block width × given-path row threshold × tiles); geqrf sweep (panel width × TSQR-panel rows).
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" "$OUT/tests.log" | head
timeout 200 /tmp/bench --orgqr-sweep --samples 5 > "$OUT/orgqr-sweep.log" 2>&1; echo "orgqr sweep rc=$?"
cat "$OUT/orgqr-sweep.log"
timeout 200 /tmp/bench --qr-sweep --samples 5 > "$OUT/qr-sweep.log" 2>&1; echo "qr sweep rc=$?"
cat "$OUT/qr-sweep.log"
timeout 60 ncu --metrics gpu__time_duration.sum --launch-count 1600 /tmp/bench --filter "orgqr 1x4096x4096" --samples 1 --quick > /tmp/ncu-orgqr.txt 2>&1
python3 scripts/ncu_sum.py /tmp/ncu-orgqr.txt --by-grid --call unit_lower 2 > "$OUT/ncu-orgqr-4096.txt"; echo "== ncu orgqr 1x4096²"; cat "$OUT/ncu-orgqr-4096.txt"
