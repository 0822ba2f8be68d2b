#!/usr/bin/env bash
# Session 27 next.sh less the suite (run 1 runs it): solves against cuSOLVER, the inv-rhs sweep, orgqr with SIMT tiles.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only


timeout 60 /tmp/bench --filter "solve" --samples 5 --json $OUT/solve.json > $OUT/bench-solve.log 2>&1; echo "bench rc=$?"
timeout 60 python3 .gpu/torch_anchor.py $OUT/solve.json --out $OUT/solve-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "solve" $OUT/anchor.log | head -8 | cut -c1-100
timeout 120 /tmp/bench --inv-rhs-sweep --samples 5 --inv-rhs-shapes 1x4096x32,1x4096x64,1x4096x128,1x16384x128,2x4096x128 > $OUT/inv-rhs-sweep.log 2>&1; echo "inv-rhs-sweep rc=$?"
grep -v "^\s*$" $OUT/inv-rhs-sweep.log | tail -10 | cut -c1-120
for g in default simt; do
  a=""; [ $g = default ] || a="--qr-big-gemm $g"
  timeout 60 /tmp/bench --filter "orgqr 1x4096|orgqr 1x8192" --samples 5 $a > $OUT/qr-$g.log 2>&1; echo "qr $g rc=$?"
  grep -E "orgqr" $OUT/qr-$g.log | cut -c1-90
done
