#!/usr/bin/env bash
# Session 46, call 1 (carry [".gpu"]: bench.xz and cholesky_tests.xz packed on 8ffad29's
# kernels, i.e. the tree's; see the log's header):
# 1. ncu per-launch times of one geqrf 1 × 4096² call on the default (split rule of session 43);
# 2. ncu sections (occupancy, warp stalls, memory) of Vᵀ·C's mma kernel at the first and a late
#    step, and of the first look-ahead launch: why Vᵀ·C streams C at ~1.4 TB/s;
# 3. the 13 Cholesky tests owed on session 43's default, in the time left.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
F="geqrf 1x4096x4096"
timeout 90 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 400 /tmp/bench --filter "$F" --samples 1 > $OUT/ncu-times.log 2>&1
echo "ncu times rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-times.log --by-grid | tee -a $R
S=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
   --section MemoryWorkloadAnalysis --section SchedulerStats --section ComputeWorkloadAnalysis)
timeout 90 ncu --clock-control none --cache-control none "${S[@]}" -k regex:gemm_mma \
  --launch-skip 0 -c 2 /tmp/bench --filter "$F" --samples 1 > $OUT/ncu-sections.log 2>&1
echo "ncu mma first rc=$? t=$SECONDS" | tee -a $R
timeout 60 ncu --clock-control none --cache-control none "${S[@]}" -k regex:gemm_mma \
  --launch-skip 90 -c 1 /tmp/bench --filter "$F" --samples 1 >> $OUT/ncu-sections.log 2>&1
echo "ncu mma late rc=$? t=$SECONDS" | tee -a $R
timeout 60 ncu --clock-control none --cache-control none "${S[@]}" -k regex:lookahead \
  --launch-skip 0 -c 1 /tmp/bench --filter "$F" --samples 1 >> $OUT/ncu-sections.log 2>&1
echo "ncu ahead first rc=$? t=$SECONDS" | tee -a $R
grep -E "^  [a-z_]+kernel|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Stall|Issued Ipc|L2 Hit|Waves Per SM|Eligible Warps" \
  $OUT/ncu-sections.log | cut -c1-110 | tee -a $R
xz -T4 $OUT/ncu-times.log $OUT/ncu-sections.log
left=$((560 - SECONDS))
timeout $left /tmp/cholesky_tests --test-threads=1 conditioning extreme_scaling \
  info_reports_first_failure nonfinite_and_errors strided_views cholesky_solve_and_inverse \
  right_looking_cutoff graph_replay copy_modes inverse_blocks leaf_kernels batched_small \
  gemm_long_k > $OUT/tests.log 2>&1
echo "cholesky tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-160 | tee -a $R
xz -9 $OUT/tests.log
