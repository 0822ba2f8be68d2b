#!/usr/bin/env bash
# Session 15, run 3: the grid kernel with run-time loops over tile columns, load and store trips (code within the instruction cache); batched_small on the H200
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/gpu.txt
timeout 200 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 240 /tmp/cholesky_tests --test-threads=1 batched_small > $OUT/batched_small.log 2>&1; echo "batched_small rc=$?"
grep -E "test result|FAILED|panicked" -A3 $OUT/batched_small.log | head -10
timeout 120 ncu --kernel-name regex:grid --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis /tmp/bench --small-sweep --samples 1 > $OUT/ncu-grid.txt 2>&1
grep -E "Registers Per|Duration|Achieved Occupancy|Theoretical Occupancy|Issued Warp|No Eligible|Block Size|Grid Size" $OUT/ncu-grid.txt | head -20
