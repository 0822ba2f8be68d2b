#!/usr/bin/env bash
# Session 22, run 1: the batched rows kernel (potrf/rows.rs) with the broadcast column read as
# 16-byte vectors (`vec_reads`), loads and stores with compile-time coordinates, and the
# `owner_pivot` option. Same run: the previous tree's bench (`bench_old`, 92fa32f) and the new
# one, alternated; the new defaults against cuSOLVER; the small-matrix sweep; ncu of the new
# rows kernel (stalls per SASS line).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
F="potrf 1024x64|potrf 4096x32|potrf 256x256|potrf 1x1024|potrf 1x4096"
for i in 1 2; do
  for b in bench_old bench; do
    timeout 90 /tmp/$b --filter "$F" --samples 9 --json $OUT/$b-$i.json > $OUT/$b-main-$i.log 2>&1; echo "$b $i rc=$?"
  done
done
timeout 100 python3 .gpu/torch_anchor.py $OUT/bench-2.json --out $OUT/merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
timeout 240 /tmp/bench --small-sweep --samples 9 > $OUT/small-sweep.log 2>&1; echo "small-sweep rc=$?"
NCU="ncu --clock-control none --cache-control none --set full --import-source no --warp-sampling-interval 0"
timeout 90 $NCU -k regex:rows_kernel -s 2 -c 1 -o $OUT/rows /tmp/bench --filter "potrf 1024x64" --samples 1 --quick > $OUT/ncu-rows.log 2>&1; echo "ncu rc=$?"
ncu -i $OUT/rows.ncu-rep --page source --csv --print-source sass > $OUT/rows-sass.csv 2>&1
ncu -i $OUT/rows.ncu-rep --page details > $OUT/rows-details.txt 2>&1
xz -T4 $OUT/rows-sass.csv $OUT/rows.ncu-rep
grep -E "Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|Executed Instructions  " $OUT/rows-details.txt | head -8
for i in 1 2; do for b in bench_old bench; do echo "== $b $i"; grep -E "^potrf" $OUT/$b-main-$i.log; done; done
grep -E "potrf" $OUT/anchor.log | head -8
cat $OUT/small-sweep.log | tail -10
