#!/usr/bin/env bash
# Session 19, run 2: TSQR panels with a last cube of up to 512 rows (the new geqrf default) and
# the T kernel with plane-uniform sums. The tsqr and geqrf suites; the QR sweep (last cube
# 256 / 512 / 1024 rows, outer blocks); geqrf / orgqr / qr(reduced) with cuSOLVER in the same
# run; geqrf / qr(reduced) with the old last cube (256 rows).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for t in tsqr geqrf; do
  timeout 120 /tmp/${t}_tests --test-threads=1 > $OUT/${t}_tests.log 2>&1; echo "$t tests rc=$?"
  grep -E "test result|panicked|FAILED" -A2 $OUT/${t}_tests.log | head -8
done
timeout 130 /tmp/bench --qr-sweep --samples 5 > $OUT/qr-sweep.log 2>&1; echo "sweep rc=$?"
timeout 50 /tmp/bench --filter "geqrf|qr reduced" --quick --samples 5 --qr-tsqr-top 256 > $OUT/qr-top256.log 2>&1
timeout 240 bash scripts/gpu-run.sh bench --filter "geqrf|orgqr|qr reduced 20x|qr reduced 40x|qr reduced 640x|qr reduced 60x|qr reduced 8x|qr reduced 2x|qr reduced 32x|qr reduced 1x4096|qr reduced 1x8192" --samples 5 > $OUT/bench-run.log 2>&1; echo "bench rc=$?"
rm -f $OUT/ours.json $OUT/gpu.txt
echo "== sweep"; cat $OUT/qr-sweep.log
echo "== top 256 (old)"; grep -E "geqrf|qr red" $OUT/qr-top256.log | grep -v tsqr
echo "== ours / cuSOLVER"; grep -E "geqrf|orgqr|qr red" $OUT/anchor.log | grep -v tsqr | head -40
