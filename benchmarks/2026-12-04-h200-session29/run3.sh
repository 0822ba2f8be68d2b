#!/usr/bin/env bash
# Session 29, run 3, on the final library code: the new default (blocks of 256 for batches of
# 2–15 matrices of ≥ 4096 rows) against blocks of 128, alternated, on the rows it changes,
# and cuSOLVER on the same inputs; then the geqrf suite once more.
# Carry: .gpu from `TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
F="orgqr 2x4096|qr reduced 2x4096|orgqr 1x4096|orgqr 8x2048"
for r in a b; do
  timeout 60 /tmp/bench --filter "$F" --samples 7 --json $OUT/def-$r.json > $OUT/def-$r.log 2>&1; echo "default $r rc=$?"
  timeout 60 /tmp/bench --filter "$F" --samples 7 --qr-apply-block 128 > $OUT/b128-$r.log 2>&1; echo "128 $r rc=$?"
done
timeout 90 python3 .gpu/torch_anchor.py $OUT/def-a.json --out $OUT/merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
for f in $OUT/def-a.log $OUT/b128-a.log $OUT/def-b.log $OUT/b128-b.log; do echo "== $(basename $f)"; grep -E "orgqr|qr reduced" $f | cut -c1-80; done
grep -E "orgqr|qr" $OUT/anchor.log | head -6 | cut -c1-110
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf.log 2>&1; echo "geqrf rc=$?"
grep -E "test result|panicked|FAILED" $OUT/geqrf.log | head -4
