#!/usr/bin/env bash
# Session 57, call D: where panel_segs stops (the test prints each case's start and end).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 100 /tmp/geqrf_tests --test-threads=1 --nocapture panel_segs > $OUT/tests-segs.log 2>&1
echo "panel_segs rc=$? t=$SECONDS"
grep -E "DBG|panicked|test result" $OUT/tests-segs.log | cut -c1-300 | tail -30
