#!/usr/bin/env bash
# Session 16, run 3 (profiles only): where geqrf 32x512^2 spends its time (ncu per-kernel times, warm
# caches), the standalone blocked diagonal-block kernel's stalls per SASS line (warm, densest sampling),
# and potrf 4096's per-kernel times with warm caches (run 1 had them cold).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
NCU="ncu --clock-control none --cache-control none"
timeout 120 $NCU --metrics gpu__time_duration.sum --launch-count 400 --csv /tmp/bench --filter "geqrf 32x512x512" --samples 1 > $OUT/ncu-geqrf-32x512.csv 2>&1
echo "geqrf rc=$? lines=$(wc -l < $OUT/ncu-geqrf-32x512.csv)"
timeout 90 $NCU --metrics gpu__time_duration.sum --launch-count 130 --csv /tmp/bench --filter "potrf 1x4096" --samples 1 --quick > $OUT/ncu-4096-warm.csv 2>&1
echo "potrf rc=$?"
timeout 150 $NCU --set full --import-source no --sampling-interval 0 -k regex:blocked_leaf -s 2 -c 1 -o $OUT/leaf /tmp/bench --filter "potrf 1x1024" --samples 1 --quick > $OUT/ncu-leaf.log 2>&1
echo "leaf rc=$?"
ncu -i $OUT/leaf.ncu-rep --page source --csv --print-source sass > $OUT/leaf-sass.csv 2>&1
ncu -i $OUT/leaf.ncu-rep --page details > $OUT/leaf-details.txt 2>&1
grep -E "Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible" $OUT/leaf-details.txt | head
ls -la $OUT
