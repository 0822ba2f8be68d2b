#!/usr/bin/env bash
# Session 57, call B (prepared, not run: the device starts failed; segments were built after it): where a register panel's column goes. ncu --set full of one grid panel
# launch and one one-cube panel launch of geqrf 1 × 4096² with look-ahead off (pairs on, the
# default), their stall reasons and the per-SASS-instruction warp-stall samples; then the
# qr_v2 shapes with pairs on and off, alternated. Pack as for a.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
for w in grid:6 one:122; do
  n=${w%%:*}; skip=${w##*:}
  timeout 150 ncu --clock-control none --set full --import-source no -k regex:panel_regs \
    --launch-skip $skip --launch-count 1 -f -o $OUT/$n /tmp/bench --filter "geqrf 1x4096x4096" \
    --samples 1 --qr-lookahead off > $OUT/ncu-$n.log 2>&1
  echo "== ncu $n rc=$? t=$SECONDS" | tee -a $R
  ncu -i $OUT/$n.ncu-rep --page details > $OUT/$n-details.txt 2>&1
  grep -E "Grid Size|Block Size|Duration|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Instructions  |Registers Per" $OUT/$n-details.txt | tee -a $R
  ncu -i $OUT/$n.ncu-rep --page source --csv --print-source sass > $OUT/$n-sass.csv 2>&1
  echo "sass csv: $(wc -l < $OUT/$n-sass.csv) lines" | tee -a $R
  ncu -i $OUT/$n.ncu-rep --page raw --csv > $OUT/$n-raw.csv 2>&1
  xz -T4 $OUT/$n-raw.csv $OUT/$n-sass.csv
done
S="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 1x4096x4096"
for pp in on off on off; do
  [ $SECONDS -lt 520 ] || break
  echo "== --qr-panel-pairs $pp (t=$SECONDS)" | tee -a $R
  timeout $((590 - SECONDS)) /tmp/bench --filter "$S" --samples 7 --qr-panel-pairs $pp 2>&1 | grep "^geqrf" | tee -a $R
done
