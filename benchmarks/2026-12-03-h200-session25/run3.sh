#!/usr/bin/env bash
# Session 25, run 3: the rows kernel with planes skipping the columns past their rows
# (`CholeskyParams::rows_skip`, run3/rejected-rows-skip.diff; the binaries of this run were
# built with it on by default, so the sweep's `rows` column is the skip): the small sweep
# (against rows-noskip), then two Cholesky tests that reach the rows kernel (the device budget
# was short after refused calls).
# Carry: .gpu with bench.xz and cholesky_tests.xz (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 60 /tmp/bench --small-sweep --samples 9 > $OUT/small-sweep-1.log 2>&1; echo "small-sweep 1 rc=$?"
grep -v "^\s*$" $OUT/small-sweep-1.log | tail -9
for t in batched_small sizes_straddle_thresholds; do
  timeout 50 /tmp/cholesky_tests --test-threads=1 $t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "^test |panicked|FAILED" $OUT/$t.log | head -4
done
