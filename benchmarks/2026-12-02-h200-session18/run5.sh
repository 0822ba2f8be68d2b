#!/usr/bin/env bash
# Session 18, run 5 (run 4 trimmed to the device time left): the register panel kernel with one
# cube barrier per column and householder_product / apply_q's per-panel T and U in registers.
# The geqrf suite, then geqrf / orgqr / qr(reduced) on the panel-path shapes with and without.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 80 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf_tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/geqrf_tests.log | head -12
for r in on off; do
  timeout 40 /tmp/bench --filter "geqrf 20x32x32|orgqr 20x32x32|qr reduced 20x32x32|geqrf 40x176x176|orgqr 40x176x176|qr reduced 40x176x176|geqrf 40x352x352|orgqr 40x352x352|qr reduced 40x352x352|geqrf 32x512x512|orgqr 32x512x512|qr reduced 32x512x512|geqrf 640x512x512|orgqr 640x512x512|qr reduced 640x512x512" --samples 5 --qr-panel-regs $r 2>&1 | tee $OUT/qr-$r.log | grep -E "geqrf|orgqr|qr red"
done
