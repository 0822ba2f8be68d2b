#!/usr/bin/env bash
# Session 16, run 4 (profiles only): stalls per SASS line (densest warp sampling, warm caches) of the
# standalone blocked diagonal-block kernel (the third call's, potrf 1024) and of the last fused
# SYRK + diagonal block of potrf 4096 (one cube: the chain's floor).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
NCU="ncu --clock-control none --cache-control none --set full --import-source no --warp-sampling-interval 0"
timeout 150 $NCU -k regex:blocked_leaf -s 2 -c 1 -o $OUT/leaf /tmp/bench --filter "potrf 1x1024" --samples 1 --quick > $OUT/ncu-leaf.log 2>&1
echo "leaf rc=$?"
timeout 150 $NCU -k regex:syrk_leaf -s 62 -c 1 -o $OUT/fused /tmp/bench --filter "potrf 1x4096" --samples 1 --quick > $OUT/ncu-fused.log 2>&1
echo "fused rc=$?"
for r in leaf fused; do
  ncu -i $OUT/$r.ncu-rep --page source --csv --print-source sass > $OUT/$r-sass.csv 2>&1
  ncu -i $OUT/$r.ncu-rep --page details > $OUT/$r-details.txt 2>&1
  grep -E "Grid Size|Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible" $OUT/$r-details.txt | head -8
done
ls -la $OUT
