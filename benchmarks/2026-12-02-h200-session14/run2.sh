#!/usr/bin/env bash
# Session 14, run 2: the register-row kernel with a unit per row (default) and rows above j skipped
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 150 bash scripts/gpu-run.sh bench --filter "potrf 1024x64|potrf 4096x32|potrf 256x256|cholesky_solve 1024x64|solve_triangular 1024x64" --samples 9 > $OUT/bench-run.log 2>&1
sed -n "/cuSOLVER anchor/,\$p" $OUT/bench-run.log | cut -c1-120
timeout 90 ncu --kernel-name regex:rows --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section SchedulerStats /tmp/bench --filter "potrf 1024x64" --samples 1 --quick > $OUT/ncu-rows.txt 2>&1
grep -E "Registers Per|Duration|Achieved Occupancy|Theoretical Occupancy|Issued Warp|Cycles Per Issued|Eligible|No Eligible" $OUT/ncu-rows.txt | head -20
timeout 300 bash scripts/gpu-run.sh tests > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" $OUT/tests.log | head -20
rm -f $OUT/tests.log $OUT/ours.json $OUT/bench-run.log
