#!/usr/bin/env bash
# Session 56, call C (prepared, not run: no device time was left): the geqrf tests that pairs
# touch. On a pack built with pairs on by default (f017f11, or `panel_pairs.unwrap_or(true)`
# in QrLaunch::new) `register_panels`, `grid_panels`, `lookahead`, `extreme_scaling` and
# `large_batch` run their cases with pairs; `panel_pairs` takes them both ways on any pack.
# Pack first: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout ${LIMIT:-220} /tmp/geqrf_tests --test-threads=1 panel_pairs grid_panels extreme_scaling register_panels lookahead large_batch > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
