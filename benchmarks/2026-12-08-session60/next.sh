#!/usr/bin/env bash
# For the next session's first call. `.gpu/` must hold binaries built with
# pairs-poll-all-default.diff applied (pairs and grid poll-all on by default): session 60 packed
# them so; after a fresh checkout: `git apply benchmarks/2026-12-08-session60/pairs-poll-all-default.diff
# && TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh && git checkout -- crates`.
# 1. panel_pairs (pairs with poll-all against neither: one-cube, grid, look-ahead, extreme
#    scaling; it has not passed on a GPU since session 56's exchange-budget fix), --nocapture.
# 2. geqrf on the qr_v2 shapes: the new default against --qr-panel-pairs off --qr-grid-poll-all off.
# 3. The rest of the geqrf suite (with pairs and poll-all the default) until LIMIT (s, 560).
# If 1 and 3 pass and 2 shows no loss: `git apply` the diff and record it.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout ${TEST_S:-160} /tmp/geqrf_tests --test-threads=1 --nocapture --exact cuda::panel_pairs > $OUT/tests-pairs.log 2>&1
echo "panel_pairs rc=$? t=$SECONDS" | tee -a $R
grep -E "test result|panicked" $OUT/tests-pairs.log | cut -c1-300 | tee -a $R
tail -n 2 $OUT/tests-pairs.log | cut -c1-200 >> $R
S="${S:-geqrf 1x4096x4096|geqrf 8x2048x2048|geqrf 32x512x512|geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 2x4096x4096}"
i=0
for v in "" "--qr-panel-pairs off --qr-grid-poll-all off"; do
  i=$((i+1))
  echo "== [$v] (t=$SECONDS)" >> $R
  timeout 90 /tmp/bench --filter "$S" --samples 5 $v > $OUT/bench-$i.log 2>&1
  echo "rc=$?" >> $R
  grep -E "^geqrf|panicked|rror" $OUT/bench-$i.log | sed "s/^/[${v:-default}] | /" | tee -a $R
done
L=$(( ${LIMIT:-560} - SECONDS ))
timeout $L /tmp/geqrf_tests --test-threads=1 --skip panel_pairs --skip panel_segs > $OUT/tests.log 2>&1
echo "suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test .*(ok|FAILED)$|test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
echo "done t=$SECONDS" | tee -a $R
