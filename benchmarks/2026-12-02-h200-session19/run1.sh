#!/usr/bin/env bash
# Session 19, run 1: T from the Gram matrix by block merges (gram.rs) and geqrf's outer blocks
# (QrParams::outer_block). The geqrf suite; the QR sweep (outer blocks of 64 / 128, 128x128
# SIMT or 3xTF32 tiles for the big updates); geqrf / orgqr / qr(reduced) with cuSOLVER in the same
# run, and geqrf / qr(reduced) with outer blocks of 128; per-kernel times of one geqrf 1x4096^2
# call with and without outer blocks (warm caches).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf_tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/geqrf_tests.log | head -12
timeout 200 /tmp/bench --qr-sweep --samples 5 > $OUT/qr-sweep.log 2>&1; echo "sweep rc=$?"
timeout 200 bash scripts/gpu-run.sh bench --filter "geqrf|orgqr|qr reduced" --samples 5 > $OUT/bench-run.log 2>&1; echo "bench rc=$?"
timeout 60 /tmp/bench --filter "geqrf|qr reduced" --samples 5 --qr-outer 128 > $OUT/qr-outer128.log 2>&1
NCU="ncu --clock-control none --cache-control none"
for ob in 0 128; do
  timeout 100 $NCU --metrics gpu__time_duration.sum --launch-count 1400 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 --qr-outer $ob > $OUT/ncu-geqrf-4096-ob$ob.txt 2>&1; echo "ncu ob$ob rc=$?"
  python3 scripts/ncu_sum.py $OUT/ncu-geqrf-4096-ob$ob.txt --by-grid > $OUT/ncu-geqrf-4096-ob$ob-sum.txt; xz -T4 $OUT/ncu-geqrf-4096-ob$ob.txt
done
echo "== sweep"; cat $OUT/qr-sweep.log
echo "== ours / cuSOLVER"; grep -E "geqrf|orgqr|qr red" $OUT/anchor.log | grep -v tsqr | head -40
echo "== outer 128"; grep -E "geqrf|qr red" $OUT/qr-outer128.log | grep -v tsqr
for ob in 0 128; do echo "== ncu ob$ob"; cat $OUT/ncu-geqrf-4096-ob$ob-sum.txt; done
