#!/usr/bin/env bash
# Session 29, run 4, after the review mend (85ed1df: merge_parts' two GEMMs written once):
# the geqrf suite on the H200. Carry: .gpu from `TESTS=geqrf BENCH=0 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf.log 2>&1; echo "geqrf rc=$?"
grep -E "test result|panicked|FAILED" $OUT/geqrf.log | head -4
