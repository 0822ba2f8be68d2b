#!/usr/bin/env bash
# c.sh in about three minutes, for a small budget: the grid_poll_all test, then geqrf 1 × 4096²
# default / poll-all / segments + poll-all, twice. Pack and carry as c.sh.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 90 /tmp/geqrf_tests --test-threads=1 --nocapture grid_poll_all > $OUT/tests-poll.log 2>&1
echo "grid_poll_all rc=$? t=$SECONDS" | tee -a $R
grep -E "test result|panicked" $OUT/tests-poll.log | cut -c1-400 | tee -a $R
for round in 1 2; do
  for v in "" "--qr-grid-poll-all on" "--qr-panel-segs on --qr-grid-poll-all on"; do
    timeout 30 /tmp/bench --filter "geqrf 1x4096x4096" --samples 5 $v > $OUT/bench.tmp 2>&1
    grep -E "^geqrf|panicked|rror" $OUT/bench.tmp | sed "s/^/[${v:-default}] | /" | tee -a $R
  done
done
echo "done t=$SECONDS" | tee -a $R
