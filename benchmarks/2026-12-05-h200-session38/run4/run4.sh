#!/usr/bin/env bash
# Session 38, device call 4: ncu of one 4096³ A·Aᵀ launch (the bench's `gemm 4096`: B = Aᵀ, K-contiguous) of the new mma default (split on read,
# sums in registers) and of MMA_TF32, for the next session's work on the kernel.
# .gpu/: bench.xz of e90c1e4 (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1
NCU="ncu --clock-control none --cache-control none --set full --import-source no"
for k in mma mma-tf32; do
  timeout 60 $NCU -k regex:gemm_mma -s 2 -c 1 -o /tmp/$k /tmp/bench --filter "gemm 4096" --samples 1 --quick --gemm-kernel $k > $OUT/x/ncu-$k.log 2>&1
  echo "ncu $k rc=$?"
  ncu -i /tmp/$k.ncu-rep --page details > $OUT/x/$k-details.txt 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Spilling|Bank" $OUT/x/$k-details.txt | head -12
done
# then, the machine still warm: ncu -i /tmp/$k.ncu-rep --page source --csv --print-source sass > $k-sass.csv (xz)
