#!/usr/bin/env bash
# Session 59, prepared for the next session's first call (not run here: the budget was spent).
# 1. grid_poll_all (new: grid exchange waits poll all late words per round) and panel_segs
#    (segments with the vector-major pivot-column buffer), with progress per case.
# 2. geqrf per shape: default, --qr-grid-poll-all on, segs + poll-all, pairs + poll-all, segs
#    alone; two rounds while END (s, default 520) allows; a timed-out variant is skipped after.
# Pack: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
for t in grid_poll_all panel_segs; do
  timeout ${TEST_S:-150} /tmp/geqrf_tests --test-threads=1 --nocapture $t > $OUT/tests-$t.log 2>&1
  echo "$t rc=$? t=$SECONDS" | tee -a $R
  grep -E "test result|panicked" $OUT/tests-$t.log | cut -c1-400 | tee -a $R
  tail -n 2 $OUT/tests-$t.log | cut -c1-300 >> $R
done
declare -A HUNG
for round in 1 2; do
  for s in "geqrf 1x4096x4096" "geqrf 8x2048x2048" "geqrf 1x8192x8192" "geqrf 32x512x512"; do
    for v in "" "--qr-grid-poll-all on" "--qr-panel-segs on --qr-grid-poll-all on" "--qr-panel-pairs on --qr-grid-poll-all on" "--qr-panel-segs on"; do
      [ $SECONDS -lt ${END:-520} ] || break 3
      [ -n "${HUNG["k$v"]:-}" ] && continue
      echo "== [$v] $s (t=$SECONDS)" >> $R
      timeout 45 /tmp/bench --filter "$s" --samples 5 $v > $OUT/bench.tmp 2>&1
      rc=$?
      grep -E "^geqrf|panicked|rror" $OUT/bench.tmp | sed "s/^/[${v:-default}] | /" | tee -a $R
      if [ $rc = 124 ]; then echo "[$v] | $s: timed out" | tee -a $R; HUNG["k$v"]=1; fi
    done
  done
done
echo "done t=$SECONDS" | tee -a $R
