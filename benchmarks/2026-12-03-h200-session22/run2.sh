#!/usr/bin/env bash
# Session 22, run 2: ncu (stalls and executed instructions per SASS line) of the rows kernel
# on potrf 1024 × 64², the previous tree's (bench_old) and run 1's; binaries of run 1.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
NCU="ncu --clock-control none --cache-control none --set full --import-source no --warp-sampling-interval 0"
for b in bench_old bench; do
  timeout 90 $NCU -k regex:rows_kernel -s 2 -c 1 -o /tmp/$b-rows /tmp/$b --filter "potrf 1024x64" --samples 1 --quick > /tmp/ncu-$b.log 2>&1; echo "ncu $b rc=$?"
  ncu -i /tmp/$b-rows.ncu-rep --page source --csv --print-source sass > $OUT/$b-sass.csv 2>&1
  ncu -i /tmp/$b-rows.ncu-rep --page details > $OUT/$b-details.txt 2>&1
  xz -T4 $OUT/$b-sass.csv
  grep -E "Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|Executed Instructions  " $OUT/$b-details.txt | head -6
done
