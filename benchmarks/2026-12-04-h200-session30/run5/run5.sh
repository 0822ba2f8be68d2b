#!/usr/bin/env bash
# Session 30, run 5: the geqrf suite after the review mend (1231219: the split-count rule
# written once; host code only). The batched split-K path runs only where the runtime reports
# its multiprocessors, so only here.
# Carry: .gpu from `TESTS=geqrf BENCH=0 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
xz -dc .gpu/geqrf_tests.xz > /tmp/geqrf_tests && chmod +x /tmp/geqrf_tests
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf.log 2>&1; echo "geqrf rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/geqrf.log | head -20
