#!/usr/bin/env bash
# Session 43, call 2 (carry [".gpu/bench.xz"]): geqrf 1 × 4096² with fewer row groups in the
# panel kernels (cubes of 256 / 128 units: the look-ahead kernel's update tiles then fit two
# or more cubes per multiprocessor) and with outer blocks on grid panels, with and without
# look-ahead; then potrf's default against staged everywhere with late C, twice.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
G="geqrf 1x4096x4096"
run() { # label, filter, flags...
  local l=$1 f=$2; shift 2
  [ $SECONDS -lt 540 ] || return
  echo "== $l" >> $B
  timeout 45 /tmp/bench --filter "$f" --samples 5 "$@" >> $B 2>&1
  echo "$l rc=$? t=$SECONDS" | tee -a $R
  tail -6 $B | grep -E "^(geqrf|potrf|qr)" | cut -c1-60 | tee -a $R
}
run default "$G"
run rows8 "$G" --qr-panel-rows 8
run rows8-off "$G" --qr-panel-rows 8 --qr-lookahead off
run rows4 "$G" --qr-panel-rows 4
run outer128-off "$G" --qr-outer 128 --qr-lookahead off
run outer128-on "$G" --qr-outer 128 --qr-lookahead on
run outer64-on "$G" --qr-outer 64 --qr-lookahead on
run rows8-8192 "geqrf 1x8192x8192" --qr-panel-rows 8
timeout 100 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 420 /tmp/bench --filter "$G" --samples 1 --qr-panel-rows 8 > $OUT/ncu-rows8.log 2>&1
echo "ncu rows8 rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-rows8.log --by-grid | tee -a $R
xz -T4 $OUT/ncu-rows8.log
C="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192"
run potrf-default "$C"
run potrf-late "$C" --potrf-staged on --potrf-c-first off
run potrf-default "$C"
run potrf-late "$C" --potrf-staged on --potrf-c-first off
