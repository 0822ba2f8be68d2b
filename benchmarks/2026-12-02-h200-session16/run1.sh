#!/usr/bin/env bash
# Session 16, run 1: two columns per step (small_pairs) in the small sweep and batched_small on the H200;
# per-kernel device times of one potrf 4096 and of the rows kernel alone (ncu, clocks not locked).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/gpu.txt
timeout 90 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 200 /tmp/cholesky_tests --test-threads=1 batched_small graph_replay > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" -A2 $OUT/cholesky_tests.log | head -10
timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --launch-count 600 --csv /tmp/bench --filter "potrf 1x4096" --samples 1 --quick > $OUT/ncu-4096-times.csv 2>&1
echo "ncu 4096 rc=$? lines=$(wc -l < $OUT/ncu-4096-times.csv)"
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --kernel-name regex:rows --launch-count 3 /tmp/bench --filter "potrf 1x64" --samples 1 --quick > $OUT/ncu-rows-1x64.txt 2>&1
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --kernel-name regex:rows --launch-count 3 /tmp/bench --filter "potrf 1024x64" --samples 1 --quick > $OUT/ncu-rows-1024x64.txt 2>&1
grep -E "rows_kernel|duration" $OUT/ncu-rows-*.txt | head -20
