#!/usr/bin/env bash
# Session 11: ncu on the batched small kernel (1024 x 64^2) and one fused SYRK + leaf of potrf 4096.
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
xz -dc .gpu/bench.xz > /tmp/bench; chmod +x /tmp/bench
ncu --set full --import-source no -k regex:small -c 1 -o $OUT/small /tmp/bench --filter "potrf 1024x64" --samples 1 > $OUT/ncu-small.log 2>&1
ncu -i $OUT/small.ncu-rep --page source --csv --print-source sass > $OUT/small-sass.csv 2>&1
ncu -i $OUT/small.ncu-rep --page details > $OUT/small-details.txt 2>&1
ncu --set full --import-source no -k regex:syrk_leaf -s 30 -c 1 -o $OUT/fused /tmp/bench --filter "potrf 1x4096" --samples 1 > $OUT/ncu-fused.log 2>&1
ncu -i $OUT/fused.ncu-rep --page source --csv --print-source sass > $OUT/fused-sass.csv 2>&1
ncu -i $OUT/fused.ncu-rep --page details > $OUT/fused-details.txt 2>&1
ncu --metrics gpu__time_duration.sum -k regex:leaf -c 64 /tmp/bench --filter "potrf 1x4096" --samples 1 --quick > $OUT/ncu-4096-times.txt 2>&1
ls -la $OUT; grep -E "Duration|Registers Per|Achieved Occ|Warp Cycles Per Issued" $OUT/small-details.txt $OUT/fused-details.txt | head -20
