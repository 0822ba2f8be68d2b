#!/usr/bin/env bash
# Session 11: the suites after the epilogue review mend (gemm::store_tile).
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}
bash scripts/gpu-run.sh tests > "$OUT/tests.log" 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" "$OUT/tests.log"
