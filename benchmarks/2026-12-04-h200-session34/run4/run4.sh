#!/usr/bin/env bash
# Session 34 run 4: the upper vector path's load and store, four ways (a diagnostic build:
# `run4/rows-exp.diff` on 01164c1, ROWS_EXP bits: 1 = the load unrolled whole instead of two
# trips, 2 = consecutive units along a block row instead of down a block column), upper
# only, the default against the scalar path. .gpu/ from `TESTS=" " BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for e in 0 1 2 3 0; do
  echo "== ROWS_EXP=$e"
  ROWS_EXP=$e SMALL_UPPER_ONLY=1 timeout 60 /tmp/bench --small-sweep --samples 9 2>&1 | grep -v "^bench on"
done | tee $OUT/exp.log
