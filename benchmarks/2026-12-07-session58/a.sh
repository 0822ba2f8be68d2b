#!/usr/bin/env bash
# Session 58, call A: lane segments (`--qr-panel-segs`) with the plane converged before every
# shuffle and a barrier before the rescue rescales: their test (progress per case on stderr),
# then geqrf per shape with segments against pairs and neither (a hang costs one shape).
# END (s, default 560) caps the bench loop, TEST_S (default 200) the test. Pack: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout ${TEST_S:-200} /tmp/geqrf_tests --test-threads=1 --nocapture panel_segs > $OUT/tests-segs.log 2>&1
echo "panel_segs rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-segs.log | cut -c1-400 | tee -a $R
tail -n 3 $OUT/tests-segs.log | cut -c1-300 | tee -a $R
for round in 1 2; do
  for s in "geqrf 1x4096x4096" "geqrf 8x2048x2048" "geqrf 32x512x512" "geqrf 1x8192x8192"; do
    for v in "--qr-panel-segs on" "--qr-panel-pairs on" "--qr-panel-pairs off"; do
      [ $SECONDS -lt ${END:-560} ] || break 3
      [ "$v" = "--qr-panel-segs on" ] && [ -n "${SEGS_HUNG:-}" ] && continue
      echo "== $v $s (t=$SECONDS)" >> $R
      timeout 45 /tmp/bench --filter "$s" --samples 5 $v > $OUT/bench.tmp 2>&1
      rc=$?
      grep -E "^geqrf|panicked|rror" $OUT/bench.tmp | sed "s/^/$v | /" | tee -a $R
      # A hang with segments costs one shape: later shapes skip them.
      if [ $rc = 124 ]; then echo "$v | $s: timed out" | tee -a $R; [ "$v" = "--qr-panel-segs on" ] && SEGS_HUNG=1; fi
    done
  done
done
echo "done t=$SECONDS" | tee -a $R
