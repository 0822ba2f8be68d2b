#!/usr/bin/env bash
# Session 30, run 4: every square QR row of the bench (geqrf, householder_product, qr reduced)
# on the committed tree c112fac (its bench, packed as bench_old.xz for run 3), and cuSOLVER
# (PyTorch) on the same inputs: the qr_v2 geometric mean after the batched split-K.
# Carry: .gpu holding bench_old.xz and torch_anchor.py.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
xz -dc .gpu/bench_old.xz > /tmp/bench && chmod +x /tmp/bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 200 /tmp/bench --filter "geqrf |orgqr |qr reduced " --samples 5 --json $OUT/ours.json > $OUT/bench.log 2>&1; echo "bench rc=$?"
timeout 240 python3 .gpu/torch_anchor.py $OUT/ours.json --out $OUT/merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "geqrf|orgqr|qr" $OUT/anchor.log | cut -c1-112
