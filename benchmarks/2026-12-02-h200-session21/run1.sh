#!/usr/bin/env bash
# Session 21, run 1: the fragment-major shared layout of the mma.sync 3xTF32 GEMM (session 20's
# unmeasured-fragment-major.diff applied to e2944a3): its GEMM tests, the tensor-core sweep
# (TFLOP/s, error, potrf with each kernel), and ncu of one 4096^3 launch of the default tiling.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/chol_gemm_tests.log 2>&1; echo "cholesky gemm tests rc=$?"
grep -E "test result|panicked|FAILED" -A3 $OUT/chol_gemm_tests.log | head -20
timeout 220 /tmp/bench --tc-sweep --samples 5 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
tail -16 $OUT/tc-sweep.log
NCU="ncu --clock-control none --cache-control none --set full --import-source no"
timeout 100 $NCU -k regex:gemm_ -s 2 -c 1 -o /tmp/mma /tmp/bench --filter "gemm 4096" --samples 1 --quick --gemm-kernel mma > /tmp/ncu-mma.log 2>&1
echo "ncu rc=$?"
ncu -i /tmp/mma.ncu-rep --page details > $OUT/mma-details.txt 2>&1
grep -E "Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Achieved Occupancy|Theoretical Occupancy|Local|Executed Ipc A" $OUT/mma-details.txt | head -14
ncu -i /tmp/mma.ncu-rep --page source --csv --print-source sass > /tmp/mma-sass.csv 2>&1; xz -9 -c /tmp/mma-sass.csv > $OUT/mma-sass.csv.xz
