#!/usr/bin/env bash
# Session 16, run 6: the Cholesky suite with K windows of 32 as the Cholesky ops' default GEMM,
# then the quick potrf and solve cases on that default.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 270 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" -A2 $OUT/cholesky_tests.log | head -40
timeout 60 /tmp/bench --filter "potrf 1x|solve" --quick --samples 5 2>&1 | tee $OUT/bench.log
