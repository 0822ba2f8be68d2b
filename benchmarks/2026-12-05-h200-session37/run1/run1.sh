#!/usr/bin/env bash
# Session 37, device call 1: the geqrf suite (extreme_scaling is new; the panel kernels'
# column loops changed) and the Cholesky tests that reach the rows kernel (session 36's
# two-trip lower load, never run on a GPU) plus the new extreme_scaling.
# .gpu/: geqrf_tests.xz and cholesky_tests.xz from `TESTS="geqrf cholesky" BENCH=1 bash
# scripts/gpu-pack.sh` (bench.xz left out: the carry limit).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
timeout 280 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf_tests.log 2>&1; echo "geqrf_tests rc=$?"
grep -E "^test |test result|panicked" $OUT/x/geqrf_tests.log | cut -c1-300
for t in extreme_scaling batched_small strided_views sizes_straddle_thresholds; do
  timeout 150 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/x/chol-$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/x/chol-$t.log | cut -c1-300
done
tar cJf $OUT/tests.tar.xz -C $OUT/x .
