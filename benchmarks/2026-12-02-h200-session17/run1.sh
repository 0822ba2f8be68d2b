#!/usr/bin/env bash
# Session 17, run 1: the diagonal-block kernel's look-ahead (session 16's unmeasured diff applied)
# in the fuse sweep, its tests on the H200; a full ncu profile of the rows kernel (1024 × 64²,
# warm caches) to see which pipe bounds it.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/gpu.txt
timeout 200 /tmp/bench --fuse-sweep --samples 5 2>&1 | tee $OUT/fuse-sweep.log
timeout 150 /tmp/cholesky_tests --test-threads=1 leaf_kernels fused_syrk_leaf > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" -A2 $OUT/cholesky_tests.log | head -10
NCU="ncu --clock-control none --cache-control none --set full --import-source no"
timeout 120 $NCU -k regex:rows -s 2 -c 1 -o $OUT/rows /tmp/bench --filter "potrf 1024x64" --samples 1 --quick > $OUT/ncu-rows.log 2>&1
echo "rows rc=$?"
ncu -i $OUT/rows.ncu-rep --page details > $OUT/rows-details.txt 2>&1
grep -E "Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Shared|LSU|MIO|Pipe|Throughput|Achieved Occ" $OUT/rows-details.txt | head -40
