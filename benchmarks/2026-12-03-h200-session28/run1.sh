#!/usr/bin/env bash
# The whole Cholesky suite on the H200, one test thread, on b702c7f (session 27's final tree).
# Carry: .gpu from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 540 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | head -24
xz -9 $OUT/cholesky_tests.log
