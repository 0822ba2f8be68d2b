#!/usr/bin/env bash
# Session 19, run 3: the final tree (row groups at most 16, outer blocks of 128 for single
# matrices of >= 8192 rows, TSQR panels' last cube of 512 rows). The tsqr and geqrf suites;
# geqrf / orgqr on the shapes whose defaults changed; 1x8192^2 without outer blocks.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for t in tsqr geqrf; do
  timeout 130 /tmp/${t}_tests --test-threads=1 > $OUT/${t}_tests.log 2>&1; echo "$t tests rc=$?"
  grep -E "test result|panicked|FAILED" -A2 $OUT/${t}_tests.log | head -8
done
F="geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 60x1024x1024|orgqr 1x4096x4096|orgqr 8x2048x2048|qr reduced 1x4096x4096"
timeout 120 /tmp/bench --filter "$F" --samples 5 > $OUT/bench-final.log 2>&1; echo "bench rc=$?"
timeout 40 /tmp/bench --filter "geqrf 1x8192x8192" --samples 5 --qr-outer 0 > $OUT/bench-8192-ob0.log 2>&1
echo "== final defaults"; grep -E "geqrf|orgqr|qr red" $OUT/bench-final.log
echo "== 1x8192^2 without outer blocks"; grep -E "geqrf" $OUT/bench-8192-ob0.log
