#!/usr/bin/env bash
# Session 12, run 5: the geqrf suite on the final tree.
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" "$OUT/tests.log"
