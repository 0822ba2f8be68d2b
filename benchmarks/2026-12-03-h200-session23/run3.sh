#!/usr/bin/env bash
# Session 23, run 3: the mma kernel's K-contiguous loads in the new item order (frag_slot):
# the Cholesky suite's GEMM tests and large_matrix first (every layout, both modes), then the
# tensor-core sweep (run 1 is the baseline, same machine kind), then ncu's memory figures on
# one plain-TF32 4096³ A·B. Carry: .gpu with bench.xz and cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/cholesky_tests.log 2>&1; echo "cholesky gemm_ + large_matrix rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky_tests.log | head -16
timeout 240 /tmp/bench --tc-sweep --samples 7 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
cat $OUT/tc-sweep.log
timeout 100 ncu --clock-control none --set full --import-source no -k regex:gemm_mma -c 1 -o $OUT/mma-tf32 /tmp/bench --filter "gemm 4096" --gemm-kernel mma-tf32 --samples 1 --quick > $OUT/ncu-mma-tf32.log 2>&1
echo "ncu mma-tf32 rc=$?"
ncu -i $OUT/mma-tf32.ncu-rep --page details > $OUT/mma-tf32-details.txt 2>&1
grep -E "Duration|L1/TEX Cache Throughput|Mem Busy|Issued Warp|No Eligible|bytes transmitted per sector" $OUT/mma-tf32-details.txt | head -12
