#!/usr/bin/env bash
# Session 60, call E: pairs and poll-all now default. 1. geqrf qr_v2 shapes, new default
# against the old (--qr-panel-pairs off --qr-grid-poll-all off), alternated, one process per
# setting. 2. The whole geqrf suite (panel_segs and grid_poll_all ran in call C on the same
# kernels) until LIMIT (s, default 490).
# Pack: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
S="${S:-geqrf 1x4096x4096|geqrf 8x2048x2048|geqrf 32x512x512|geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 2x4096x4096}"
i=0
for v in "" "--qr-panel-pairs off --qr-grid-poll-all off"; do
  i=$((i+1))
  echo "== [$v] (t=$SECONDS)" >> $R
  timeout 75 /tmp/bench --filter "$S" --samples 5 $v > $OUT/bench-$i.log 2>&1
  echo "rc=$?" >> $R
  grep -E "^geqrf|panicked|rror" $OUT/bench-$i.log | sed "s/^/[${v:-default}] | /" | tee -a $R
done
L=$(( ${LIMIT:-490} - SECONDS ))
timeout $L /tmp/geqrf_tests --test-threads=1 --skip panel_segs --skip grid_poll_all > $OUT/tests.log 2>&1
echo "suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test .*(ok|FAILED)$|test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
echo "done t=$SECONDS" | tee -a $R
