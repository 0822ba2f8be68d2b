#!/usr/bin/env bash
# Session 58, call A: lane segments (`--qr-panel-segs`) with the plane converged before every
# shuffle and a barrier before the rescue rescales: their test (progress per case on stderr),
# then geqrf per shape with segments against pairs and neither (a hang costs one shape).
# Pack: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 200 /tmp/geqrf_tests --test-threads=1 --nocapture panel_segs > $OUT/tests-segs.log 2>&1
echo "panel_segs rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-segs.log | cut -c1-400 | tee -a $R
tail -n 3 $OUT/tests-segs.log | cut -c1-300 | tee -a $R
for round in 1 2; do
  for v in "--qr-panel-segs on" "--qr-panel-pairs on" "--qr-panel-pairs off"; do
    for s in "geqrf 32x512x512" "geqrf 1x4096x4096" "geqrf 8x2048x2048" "geqrf 1x8192x8192"; do
      [ $SECONDS -lt 560 ] || break 3
      echo "== $v $s (t=$SECONDS)" >> $R
      timeout 45 /tmp/bench --filter "$s" --samples 5 $v 2>&1 | grep -E "^geqrf|panicked|rror" | sed "s/^/$v | /" | tee -a $R
    done
  done
done
echo "done t=$SECONDS" | tee -a $R
