#!/usr/bin/env bash
# Session 27, run 2: `bench --inv-rhs-sweep` (solves with fewer right-hand sides than
# inv_block: recursion to the leaves against whole inverted blocks of order up to inv_rhs·k),
# then the default solves against cuSOLVER (PyTorch) on the same inputs. Same .gpu as run 1.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
[ -x /tmp/bench ] || bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack unless warm
timeout 400 /tmp/bench --inv-rhs-sweep --samples 5 > $OUT/inv-rhs-sweep.log 2>&1; echo "inv-rhs-sweep rc=$?"
grep -v "^\s*$" $OUT/inv-rhs-sweep.log | tail -21
timeout 60 /tmp/bench --filter "solve" --samples 5 --json $OUT/solve.json > $OUT/bench-solve.log 2>&1; echo "bench rc=$?"
timeout 60 python3 .gpu/torch_anchor.py $OUT/solve.json --out $OUT/solve-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "solve" $OUT/anchor.log | head -10
# householder_product / geqrf at 4096² and 8192² with the 3×TF32 mma.sync GEMM on their
# updates of ≥ 1024 × 1024 (--qr-big-gemm), against the default SIMT tiles.
F="orgqr 1x4096|orgqr 1x8192|geqrf 1x8192"
for g in default mma mma-sh; do
  a=""; [ $g = default ] || a="--qr-big-gemm $g"
  timeout 100 /tmp/bench --filter "$F" --samples 3 $a > $OUT/qr-$g.log 2>&1; echo "qr $g rc=$?"
  grep -E "orgqr|geqrf" $OUT/qr-$g.log | cut -c1-90
done
