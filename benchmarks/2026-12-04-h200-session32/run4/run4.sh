#!/usr/bin/env bash
# Session 32 run 4: run 3's one failure (graph_replay: a failed matrix's NaN columns compared
# with ==) after the test compares bit patterns; with the other tests that factor failing
# matrices. .gpu/ from `TESTS=cholesky BENCH=0 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for t in graph_replay info_reports_first_failure batched_small; do
  timeout 150 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "^test |test result|panicked" $OUT/$t.log | cut -c1-300
done
