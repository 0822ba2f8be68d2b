#!/usr/bin/env bash
# Session 23, run 2: potrf with 3×TF32 and plain-TF32 large updates on G·Gᵀ + δ·I (the
# precision sweep); the Cholesky suite's GEMM tests and large_matrix with the TF32 mode added;
# potrf 16384's per-kernel times (one call, warm caches); ncu's full set on one plain-TF32
# 4096³ GEMM (what bounds the kernel when the tensor work is a third). Carry: .gpu with
# bench.xz and cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 180 /tmp/bench --precision-sweep --samples 3 > $OUT/precision-sweep.log 2>&1; echo "precision rc=$?"
cat $OUT/precision-sweep.log
timeout 130 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/cholesky_tests.log 2>&1; echo "cholesky gemm_ + large_matrix rc=$?"
grep -E "^test |test result|panicked|FAILED|tf32 mma" $OUT/cholesky_tests.log | head -16
timeout 140 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --launch-count 1500 /tmp/bench --filter "potrf 1x16384" --samples 1 > $OUT/ncu-16384.txt 2>&1
echo "ncu 16384 rc=$? lines=$(wc -l < $OUT/ncu-16384.txt)"
python3 scripts/ncu_sum.py $OUT/ncu-16384.txt --by-grid 2>&1 | head -30
timeout 100 ncu --clock-control none --set full --import-source no -k regex:gemm_mma -c 1 -o $OUT/mma-tf32 /tmp/bench --filter "gemm 4096" --gemm-kernel mma-tf32 --samples 1 --quick > $OUT/ncu-mma-tf32.log 2>&1
echo "ncu mma-tf32 rc=$?"
ncu -i $OUT/mma-tf32.ncu-rep --page details > $OUT/mma-tf32-details.txt 2>&1
grep -E "Duration|Registers Per|Achieved Occupancy|Issued Warp|No Eligible|Pipe|Stall|Shared Memory|Bank" $OUT/mma-tf32-details.txt | head -30
