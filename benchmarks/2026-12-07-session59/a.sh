#!/usr/bin/env bash
# Session 59, call A: lane segments (`--qr-panel-segs`) — their test with progress per case;
# where it does not pass, compute-sanitizer's synccheck on it (divergent barriers and plane
# syncs); then geqrf per shape with segments against pairs and neither (a hang costs one shape).
# TEST_S (default 150) caps the test, SAN_S (default 90) the sanitizer, END (default 520) the
# bench loop. Pack: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout ${TEST_S:-150} /tmp/geqrf_tests --test-threads=1 --nocapture panel_segs > $OUT/tests-segs.log 2>&1
trc=$?
echo "panel_segs rc=$trc t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-segs.log | cut -c1-400 | tee -a $R
tail -n 4 $OUT/tests-segs.log | cut -c1-300 | tee -a $R
if [ $trc != 0 ]; then
  SAN=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n1)
  echo "sanitizer: ${SAN:-none}" | tee -a $R
  if [ -n "$SAN" ]; then
    timeout ${SAN_S:-90} "$SAN" --tool synccheck --print-limit 20 /tmp/geqrf_tests --test-threads=1 --nocapture panel_segs > $OUT/synccheck.log 2>&1
    echo "synccheck rc=$? t=$SECONDS" | tee -a $R
    grep -E "Barrier|barrier|syncwarp|Invalid|ERROR SUMMARY|case|=========" $OUT/synccheck.log | head -n 30 | cut -c1-300 | tee -a $R
  fi
fi
for round in 1 2; do
  for s in "geqrf 1x4096x4096" "geqrf 8x2048x2048" "geqrf 32x512x512" "geqrf 1x8192x8192"; do
    for v in "--qr-panel-segs on" "--qr-panel-pairs on" "--qr-panel-pairs off"; do
      [ $SECONDS -lt ${END:-520} ] || break 3
      [ "$v" = "--qr-panel-segs on" ] && { [ -n "${SEGS_HUNG:-}" ] || [ $trc != 0 ]; } && continue
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
