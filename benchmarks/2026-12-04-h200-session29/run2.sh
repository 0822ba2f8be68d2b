#!/usr/bin/env bash
# Session 29, run 2: householder_product's wide blocks of 256 columns (T formed in two parts of
# 128, merged by two GEMMs; `QrParams::apply_block` up to 256). The geqrf suite (its new cases
# run 256 = two parts on the H200), then the orgqr / qr rows at the default (128) and at 256,
# alternated, and cuSOLVER on the same inputs; then session 28's left-over sweep: whole
# inverted blocks against the chain for 4–16 right-hand sides.
# Carry: .gpu from `TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf.log 2>&1; echo "geqrf rc=$?"
grep -E "test result|panicked|FAILED" $OUT/geqrf.log | head -6
F="orgqr 1x4096|orgqr 1x8192|orgqr 2x4096|orgqr 8x2048|qr reduced 1x8192|qr reduced 1x4096"
for r in a b; do
  timeout 60 /tmp/bench --filter "$F" --samples 5 --json $OUT/hp-128-$r.json > $OUT/hp-128-$r.log 2>&1; echo "128 $r rc=$?"
  timeout 60 /tmp/bench --filter "$F" --samples 5 --qr-apply-block 256 --json $OUT/hp-256-$r.json > $OUT/hp-256-$r.log 2>&1; echo "256 $r rc=$?"
done
timeout 90 python3 .gpu/torch_anchor.py $OUT/hp-128-a.json --out $OUT/hp-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
for f in $OUT/hp-*-?.log; do echo "== $(basename $f)"; grep -E "orgqr|qr reduced" $f | cut -c1-90; done
grep -E "orgqr|qr" $OUT/anchor.log | head -8 | cut -c1-110
timeout 150 /tmp/bench --inv-rhs-sweep --samples 5 --inv-rhs-shapes 1x4096x4,1x4096x8,1x4096x16,1x16384x16,8x2048x16 > $OUT/inv-rhs-small-k.log 2>&1; echo "inv-rhs small k rc=$?"
grep -v "^\s*$" $OUT/inv-rhs-small-k.log | tail -8 | cut -c1-140
