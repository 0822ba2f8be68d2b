#!/usr/bin/env bash
# Session 22, run 7: the rows kernel reading a_(j+1)j before the pivot's square root
# (`RowsConfig::hoist`, so the read's latency overlaps it) against after it (`rows-late`, the
# SASS of 92fa32f's kernel, byte for byte by scripts/local-sass.sh), both twice in one sweep,
# alternated; then the Cholesky tests that run the rows kernel, on the hoisted default.
# Carry: .gpu with bench.xz and cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 100 /tmp/bench --small-sweep --samples 9 > $OUT/small-sweep.log 2>&1; echo "small-sweep rc=$?"
grep -A9 "^batch x n" $OUT/small-sweep.log
timeout 110 /tmp/cholesky_tests --test-threads=1 batched_small strided_views info_reports > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | head
