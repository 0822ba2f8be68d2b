#!/usr/bin/env bash
# Session 44, call one (carry .gpu: bench.xz = the panel change, bench_old.xz = session 43's
# tree): old and new benches interleaved on the same inputs (the tests did not fit the carry).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
for b in bench bench_old; do xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee -a $R
F="geqrf 1x4096x4096|geqrf 2x4096x4096|geqrf 8x2048x2048|geqrf 1x8192x8192|geqrf 32x512x512|geqrf 60x1024x1024"
for r in 1 2; do
  for v in bench bench_old; do
    timeout 110 /tmp/$v --filter "$F" --samples 5 > $OUT/$v-$r.log 2>&1
    echo "$v round $r rc=$? t=$SECONDS" | tee -a $R
  done
done
for v in bench bench_old; do
  echo "== $v" | tee -a $R
  grep -hE "^geqrf" $OUT/$v-1.log $OUT/$v-2.log | cut -c1-70 | sort | tee -a $R
done
