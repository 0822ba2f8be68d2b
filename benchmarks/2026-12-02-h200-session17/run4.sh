#!/usr/bin/env bash
# Session 17, run 4: the pivots' 1/√d by Newton steps (fast_rsqrt, default) against the IEEE path
# in the small sweep (rows-ieee) and the fuse sweep (ieee), then the Cholesky suite.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 45 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 100 /tmp/bench --fuse-sweep --samples 5 2>&1 | tee $OUT/fuse-sweep.log
timeout 290 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" -A2 $OUT/cholesky_tests.log | head -40
