#!/usr/bin/env bash
# Session 58, call B (the budget's last ~4 minutes): geqrf 1 × 4096² with lane segments
# against neither, then as much of `panel_segs` as fits. Pack as a.sh.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
for v in "--qr-panel-segs on" "--qr-panel-pairs off"; do
  timeout 40 /tmp/bench --filter "geqrf 1x4096x4096" --samples 5 $v > $OUT/bench.tmp 2>&1
  rc=$?
  grep -E "^geqrf|panicked|rror" $OUT/bench.tmp | sed "s/^/$v | /" | tee -a $R
  echo "$v rc=$rc t=$SECONDS" | tee -a $R
done
timeout $((${END:-130} - SECONDS)) /tmp/geqrf_tests --test-threads=1 --nocapture panel_segs > $OUT/tests-segs.log 2>&1
echo "panel_segs rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-segs.log | cut -c1-400 | tee -a $R
tail -n 3 $OUT/tests-segs.log | cut -c1-300 | tee -a $R
