#!/usr/bin/env bash
# Session 24, run 3: run 2's suite stopped inside `inverse_blocks` (300 s timeout). That test
# alone with progress lines (--nocapture), then the rest of the suite. Carry: .gpu with
# cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
start=$(date +%s)
timeout 90 /tmp/cholesky_tests --test-threads=1 --nocapture inverse_blocks > $OUT/inverse_blocks.log 2>&1; echo "inverse_blocks rc=$? after $(( $(date +%s) - start )) s"
grep -E "inverse_blocks:|test |panicked|result" $OUT/inverse_blocks.log | tail -12
start=$(date +%s)
timeout 230 /tmp/cholesky_tests --test-threads=1 --skip inverse_blocks > $OUT/rest.log 2>&1; echo "rest rc=$? after $(( $(date +%s) - start )) s"
grep -E "^test |test result|panicked|FAILED" $OUT/rest.log | head -24
