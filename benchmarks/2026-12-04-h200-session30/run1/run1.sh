#!/usr/bin/env bash
# Session 30, run 1: split-K of Vᵀ·C and of the Gram matrices for batches of up to 8 matrices
# (the new default, QrParams::split_matrices) against single matrices only (the old rule,
# --qr-split-matrices 1), alternated, on the batched QR rows; cuSOLVER on the same inputs;
# then the geqrf suite (the GEMM kernels' batch indices changed).
# Carry: .gpu from `TESTS="geqrf cholesky" BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
F="geqrf 2x4096|geqrf 8x2048|orgqr 2x4096|orgqr 8x2048|qr reduced 2x4096|qr reduced 8x2048|geqrf 1x4096|orgqr 1x4096"
for r in a b; do
  timeout 90 /tmp/bench --filter "$F" --samples 5 --json $OUT/def-$r.json > $OUT/def-$r.log 2>&1; echo "split8 $r rc=$?"
  timeout 90 /tmp/bench --filter "$F" --samples 5 --qr-split-matrices 1 > $OUT/one-$r.log 2>&1; echo "split1 $r rc=$?"
done
timeout 120 python3 .gpu/torch_anchor.py $OUT/def-a.json --out $OUT/merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf.log 2>&1; echo "geqrf rc=$?"
grep -E "test result|panicked|FAILED" $OUT/geqrf.log | head -4
for f in $OUT/def-a.log $OUT/one-a.log $OUT/def-b.log $OUT/one-b.log; do echo "== $(basename $f)"; grep -E "geqrf|orgqr|qr reduced" $f | cut -c1-75; done
grep -E "geqrf|orgqr|qr" $OUT/anchor.log | head -10 | cut -c1-110
