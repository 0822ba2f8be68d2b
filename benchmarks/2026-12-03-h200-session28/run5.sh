#!/usr/bin/env bash
# Session 28, run 5: the whole Cholesky suite on the final tree, one test thread.
# Carry: .gpu from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 440 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "suite rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | head -20; xz -9 $OUT/cholesky_tests.log
