#!/usr/bin/env bash
# Session 44, call two (carry .gpu: bench.xz and geqrf_tests.xz of the tree with
# QrParams::grid_staged_sums): the panel tests on the GPU, then grid panels with staged sums
# (on, the new exchange) and with row group 0's sums (off, session 43's exchange) interleaved.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
for b in bench geqrf_tests; do xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 220 /tmp/geqrf_tests --test-threads=1 grid_panels lookahead register_panels extreme_scaling > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-160 | tee -a $R
F="geqrf 1x4096x4096|geqrf 2x4096x4096|geqrf 8x2048x2048|geqrf 1x8192x8192|geqrf 60x1024x1024"
for r in 1 2; do
  for v in on off; do
    timeout 100 /tmp/bench --filter "$F" --samples 5 --qr-grid-staged $v > $OUT/staged-$v-$r.log 2>&1
    echo "staged $v round $r rc=$? t=$SECONDS" | tee -a $R
  done
done
for v in on off; do
  echo "== staged $v" | tee -a $R
  grep -hE "^geqrf" $OUT/staged-$v-1.log $OUT/staged-$v-2.log | cut -c1-60 | sort | tee -a $R
done
