#!/usr/bin/env bash
# Session 45, call one (carry .gpu: bench.xz and geqrf_tests.xz of the tree with
# QrParams::lookahead_c_first and lookahead_tile_k): look-ahead tiles with C loaded first,
# and with K in one window of 32, against the default, alternated, two rounds; the geqrf
# `lookahead` test (both knobs, bit for bit), then the rest of the geqrf suite (owed on an
# H200 for session 44's kernels); then K 32 alone and grids of 256 rows with C first; then,
# in the time left before 480 s, an ncu of one 1 × 4096² call with C first. Ordered so that
# a call cut short keeps the most useful logs.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
for b in bench geqrf_tests; do xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
F="geqrf 1x4096x4096|geqrf 1x8192x8192|qr reduced 1x4096x4096"
run() { name=$1; shift; timeout 120 /tmp/bench --samples 5 "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? t=$SECONDS" | tee -a $R; }
show() { for v in "$@"; do echo "== $v" | tee -a $R; grep -hE "^(geqrf|qr)" $OUT/$v.log | cut -c1-60 | tee -a $R; done; }
for r in 1 2; do
  run default-$r --filter "$F"
  run cfirst-$r --filter "$F" --qr-ahead-c-first on
  run cfirst-k32-$r --filter "$F" --qr-ahead-c-first on --qr-ahead-tile-k 32
done
show default-1 cfirst-1 cfirst-k32-1 default-2 cfirst-2 cfirst-k32-2
timeout 120 /tmp/geqrf_tests --test-threads=1 lookahead > $OUT/tests-lookahead.log 2>&1
echo "geqrf lookahead rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-lookahead.log | cut -c1-160 | tee -a $R
timeout 250 /tmp/geqrf_tests --test-threads=1 --skip lookahead > $OUT/tests.log 2>&1
echo "geqrf suite (the rest) rc=$? t=$SECONDS" | tee -a $R
grep -E "test result|panicked|FAILED|failed" $OUT/tests.log | cut -c1-160 | tee -a $R
xz -9 $OUT/tests.log
run k32 --filter "$F" --qr-ahead-tile-k 32
run cfirst-g256 --filter "geqrf 1x4096x4096|geqrf 1x8192x8192" --qr-ahead-c-first on --qr-panel-grid 256
show k32 cfirst-g256
left=$((480 - SECONDS))
if [ $left -gt 60 ]; then
  timeout $left ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    -c 400 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 --qr-ahead-c-first on > $OUT/ncu-cfirst.log 2>&1
  echo "ncu cfirst rc=$? t=$SECONDS" | tee -a $R
  xz -9 $OUT/ncu-cfirst.log
fi
