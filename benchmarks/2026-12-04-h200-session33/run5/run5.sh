#!/usr/bin/env bash
# Session 33 run 5: batched_small with its new sliced case (order 60, rows 68 apart, offset 8:
# the vector path on strided rows) and the explicit scalar variant, on the final kernels.
# .gpu/ from `TESTS=cholesky BENCH=0 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for t in batched_small; do
  timeout 250 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/$t.log | cut -c1-300
done
