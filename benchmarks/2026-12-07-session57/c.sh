#!/usr/bin/env bash
# Session 57, call C: lane segments (`--qr-panel-segs`) in geqrf's register panels: their test,
# then geqrf with segments against pairs (the default) and neither, alternated, then the
# grid tests with pairs on by default. Pack:
# TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 150 /tmp/geqrf_tests --test-threads=1 panel_segs > $OUT/tests-segs.log 2>&1
echo "panel_segs rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-segs.log | cut -c1-400 | tee -a $R
S="geqrf 1x4096x4096|geqrf 8x2048x2048|geqrf 1x8192x8192|geqrf 32x512x512"
for round in 1 2; do
  for v in "--qr-panel-segs on" "--qr-panel-pairs on" "--qr-panel-pairs off"; do
    [ $SECONDS -lt 400 ] || break
    echo "== $v (t=$SECONDS)" | tee -a $R
    timeout $((450 - SECONDS)) /tmp/bench --filter "$S" --samples 5 $v 2>&1 | grep -E "^geqrf|panicked|rror" | tee -a $R
  done
done
# Then, as time allows, the grid tests with pairs on by default (the pack's default).
timeout $((590 - SECONDS)) /tmp/geqrf_tests --test-threads=1 panel_pairs grid_panels extreme_scaling lookahead > $OUT/tests.log 2>&1
echo "tests (pairs default) rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
