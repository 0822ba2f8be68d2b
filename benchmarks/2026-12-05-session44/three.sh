#!/usr/bin/env bash
# Session 44, call three (carry .gpu: bench.xz and geqrf_tests.xz of 85d56f3's successor,
# staged sums in look-ahead steps only): the whole geqrf suite, then grid panels for every
# panel of two cubes or more (--qr-panel-grid 128: grid_from 0) and cubes of 256 rows against
# the default, and look-ahead forced on for 2 × 4096².
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
for b in bench geqrf_tests; do xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 300 /tmp/geqrf_tests --test-threads=1 > $OUT/tests.log 2>&1
echo "geqrf suite rc=$? t=$SECONDS" | tee -a $R
grep -E "test result|panicked|FAILED|failed" $OUT/tests.log | cut -c1-160 | tee -a $R
F="geqrf 1x4096x4096|geqrf 2x4096x4096|geqrf 8x2048x2048|geqrf 1x8192x8192"
run() { name=$1; shift; timeout 100 /tmp/bench --samples 5 "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? t=$SECONDS" | tee -a $R; }
run default --filter "$F"
run grid128 --filter "$F" --qr-panel-grid 128
run grid256 --filter "$F" --qr-panel-grid 256
run default2 --filter "$F"
run ahead2 --filter "geqrf 2x4096x4096" --qr-lookahead on
for v in default default2 grid128 grid256 ahead2; do
  echo "== $v" | tee -a $R
  grep -hE "^geqrf" $OUT/$v.log | cut -c1-60 | tee -a $R
done
