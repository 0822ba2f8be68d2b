#!/usr/bin/env bash
# Session 11: the blocked-Crout small kernel: suite, small sweep, anchors.
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" "$OUT/tests.log" | head
/tmp/bench --small-sweep --samples 9 2>&1 | tee "$OUT/small-sweep.log" | tail -12
bash scripts/gpu-run.sh bench --filter "potrf 1024x64|potrf 4096x32|potrf 256x256|cholesky_solve 1024x64|solve_triangular 1024x64" --samples 9 > "$OUT/bench-run.log" 2>&1
tail -15 "$OUT/bench-run.log"
