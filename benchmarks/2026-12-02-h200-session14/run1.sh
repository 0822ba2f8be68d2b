#!/usr/bin/env bash
# Session 14, run 1: the register-row batched Cholesky against Crout and the tiled leaf
# (small sweep), the small cases against cuSOLVER, ncu of one launch, the Cholesky suite.
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 150 bash scripts/gpu-run.sh bench --filter "potrf 1024x64|potrf 4096x32|potrf 256x256|cholesky_solve 1024x64|solve_triangular 1024x64" --samples 9 > $OUT/bench-run.log 2>&1
sed -n "/cuSOLVER anchor/,\$p" $OUT/bench-run.log | cut -c1-120
timeout 120 ncu --kernel-name regex:rows --launch-count 2 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats /tmp/bench --filter "potrf 1024x64" --samples 1 --quick > $OUT/ncu-rows.txt 2>&1
grep -E "Registers Per|Duration|Achieved Occupancy|Theoretical Occupancy|Stall|Issued Warp|Shared Memory Config" $OUT/ncu-rows.txt | head -30
timeout 300 bash scripts/gpu-run.sh tests > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" $OUT/tests.log | head -20
rm -f $OUT/tests.log $OUT/ours.json $OUT/bench-run.log
