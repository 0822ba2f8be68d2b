#!/usr/bin/env bash
# Session 56, call B (prepared, not run: no device time was left): the whole geqrf suite
# (first the tests that pairs touch), then, as time allows, where the register panels' time
# goes: ncu of one geqrf 1 × 4096² call without look-ahead (so the grid panel launches stand
# alone), pairs on. For the suite with pairs, build the pack with them on by default.
# Pack first: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
echo "== geqrf suite (t=$SECONDS)" | tee -a $R
# The tests the pairs touch first, then the rest of the suite.
FIRST="panel_pairs register_panels grid_panels lookahead extreme_scaling large_batch"
timeout 200 /tmp/geqrf_tests --test-threads=1 $FIRST > $OUT/tests.log 2>&1
echo "tests (pairs) rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
SKIP=""; for t in $FIRST; do SKIP="$SKIP --skip $t"; done
timeout $((320 - SECONDS)) /tmp/geqrf_tests --test-threads=1 $SKIP > $OUT/tests-rest.log 2>&1
echo "tests (rest) rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-rest.log | cut -c1-300 | tee -a $R
NCU="ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum"
for pp in on; do
  [ $SECONDS -lt 330 ] || break
  timeout $((420 - SECONDS)) $NCU -c 700 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 --qr-lookahead off --qr-panel-pairs $pp > $OUT/ncu-$pp.log 2>&1
  echo "== ncu pairs $pp rc=$? (t=$SECONDS)" | tee -a $R
  python3 scripts/ncu_sum.py $OUT/ncu-$pp.log 2>&1 | tail -12 | tee -a $R
  grep -E "^  [a-z_]+.*\(|gpu__time_duration" $OUT/ncu-$pp.log | paste - - | awk '{print $1, $(NF)}' > $OUT/seq-$pp.txt
  grep panel_regs $OUT/seq-$pp.txt | awk 'NR%8==1' | head -20 | tee -a $R
  xz -T4 $OUT/ncu-$pp.log
done
