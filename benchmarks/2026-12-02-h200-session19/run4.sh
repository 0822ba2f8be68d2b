#!/usr/bin/env bash
# Session 19, run 4: the register panel kernel with one slot of reduction rows and pivot row
# (as in session 18's run 3; the final tree of session 18 had two, left from the rejected
# one-barrier variant). The geqrf suite, then the rows it changes.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 110 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf_tests.log 2>&1; echo "geqrf tests rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/geqrf_tests.log | head -8
F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 32x512x512|geqrf 60x1024x1024|geqrf 640x512x512|geqrf 1x4096x4096"
timeout 60 /tmp/bench --filter "$F" --samples 5 > $OUT/bench-slots.log 2>&1; echo "bench rc=$?"
grep -E "geqrf" $OUT/bench-slots.log
