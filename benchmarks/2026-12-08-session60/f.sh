#!/usr/bin/env bash
# Session 60, call F (the budget's last ~3 minutes): with pairs and poll-all on by default,
# the tests that run grid panels and the rescue: panel_pairs (pairs against neither), then
# extreme_scaling, grid_panels, lookahead, until LIMIT (s, default 170). --nocapture: the
# last case printed is the one running. Pack: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
for t in panel_pairs extreme_scaling grid_panels lookahead; do
  L=$(( ${LIMIT:-170} - SECONDS )); [ $L -gt 5 ] || break
  timeout $L /tmp/geqrf_tests --test-threads=1 --nocapture --exact cuda::$t > $OUT/tests-$t.log 2>&1
  echo "$t rc=$? t=$SECONDS" | tee -a $R
  grep -E "test result|panicked" $OUT/tests-$t.log | cut -c1-300 | tee -a $R
  tail -n 2 $OUT/tests-$t.log | cut -c1-200 >> $R
done
echo "done t=$SECONDS" | tee -a $R
