#!/usr/bin/env bash
# Session 20, run 3: the mma.sync kernel on scalar registers (gpu_asm): its GEMM tests and
# potrf with it on the large updates; the tensor-core sweep; ncu of one 4096^3 launch of the
# default tiling (registers, local memory, stalls) for the record.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/chol_gemm_tests.log 2>&1; echo "cholesky gemm tests rc=$?"
grep -E "test result|panicked|FAILED|^test " -A3 $OUT/chol_gemm_tests.log | head -30
timeout 150 /tmp/bench --tc-sweep --samples 5 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
tail -11 $OUT/tc-sweep.log
NCU="ncu --clock-control none --cache-control none --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis"
timeout 90 $NCU -k regex:gemm_ -s 2 -c 1 /tmp/bench --filter "gemm 4096" --samples 1 --quick --gemm-kernel mma > $OUT/ncu-mma.txt 2>&1; echo "ncu rc=$?"
grep -E "Duration|Registers Per|Warp Cycles Per Issued|No Eligible|Achieved Occupancy|Theoretical Occupancy|Local|Stall|Block Limit Reg|Compute \(SM\) Throughput|Memory Throughput" $OUT/ncu-mma.txt | head -24
