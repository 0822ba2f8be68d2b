#!/usr/bin/env bash
# Session 20, run 2 (profile, on the run-1 kernel: MmaDefinition fragments, which lower to
# llvm.nvvm.mma.m16n8k8.row.col.tf32): why it reaches 25-32 TFLOP/s. ncu of
# one 4096^3 A*B^T launch of the default tiling (2x4 planes of 4x4) and of 4x4 planes of 2x4,
# and of the SIMT 128x128 kernel for comparison; the CUDA source of the mma kernel.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
NCU="ncu --clock-control none --cache-control none --set full --import-source no"
for k in mma mma512 simt; do
  timeout 120 $NCU -k regex:gemm_ -s 2 -c 1 -o /tmp/$k /tmp/bench --filter "gemm 4096" --samples 1 --quick --gemm-kernel $k > /tmp/ncu-$k.log 2>&1
  echo "$k rc=$?"
  ncu -i /tmp/$k.ncu-rep --page details > $OUT/$k-details.txt 2>&1
  grep -E "Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Achieved Occupancy|Theoretical Occupancy|Local|Executed Ipc A|Block Limit" $OUT/$k-details.txt | head -16
done
ncu -i /tmp/mma.ncu-rep --page source --csv --print-source sass > /tmp/mma-sass.csv 2>&1; xz -9 -c /tmp/mma-sass.csv > $OUT/mma-sass.csv.xz
cd /tmp && CUBECL_DEBUG_LOG=/tmp/src.log timeout 60 /tmp/bench --filter "gemm 4096" --samples 1 --quick --gemm-kernel mma > /dev/null 2>&1
grep -n "gemm_mma" /tmp/src.log | head -3; xz -9 -c /tmp/src.log > $OUT/src.log.xz; ls -la $OUT
