#!/usr/bin/env bash
# Session 27, run 5: householder_product 4096² and 8192² with the 3×TF32 mma.sync GEMM on its
# updates of ≥ 1024 × 1024 (--qr-big-gemm; householder_product's blocks are 128 wide, so its
# V·W products have K = 128), against the default SIMT tiles. A measurement for a later
# default; nothing changes here. Carry: .gpu with bench.xz (TESTS=" " BENCH=1 bash
# scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
F="orgqr 1x4096|orgqr 1x8192"
for g in default mma mma-sh default; do
  a=""; [ $g = default ] || a="--qr-big-gemm $g"
  timeout 60 /tmp/bench --filter "$F" --samples 5 $a >> $OUT/qr-$g.log 2>&1; echo "qr $g rc=$?"
  grep -E "orgqr" $OUT/qr-$g.log | tail -2 | cut -c1-90
done
