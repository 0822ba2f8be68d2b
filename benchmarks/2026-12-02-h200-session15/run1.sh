#!/usr/bin/env bash
# Session 15, run 1: rows kernel with the column broadcast as 4-vectors (+ plane skip); batched_small on the H200
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/gpu.txt
timeout 200 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 240 /tmp/cholesky_tests --test-threads=1 batched_small > $OUT/batched_small.log 2>&1; echo "batched_small rc=$?"
grep -E "test result|FAILED|panicked" $OUT/batched_small.log | head -10
timeout 90 ncu --kernel-name regex:rows --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis /tmp/bench --filter "potrf 1024x64" --samples 1 --quick > $OUT/ncu-rows.txt 2>&1
grep -E "Registers Per|Duration|Achieved Occupancy|Theoretical Occupancy|Issued Warp|No Eligible|Shared" $OUT/ncu-rows.txt | head -20
