#!/usr/bin/env bash
# Session 15, run 5: the rows kernel with finished planes skipped (small_skip, scalar broadcast) against without; batched_small on the H200
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/gpu.txt
timeout 80 /tmp/bench --small-sweep --samples 7 2>&1 | tee $OUT/small-sweep.log
timeout 150 /tmp/cholesky_tests --test-threads=1 batched_small graph_replay > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" -A2 $OUT/cholesky_tests.log | head -10
timeout 40 ncu --kernel-name regex:rows --launch-count 1 --section LaunchStats --section SpeedOfLight /tmp/bench --filter "potrf 1024x64" --samples 1 --quick > $OUT/ncu-rows.txt 2>&1
grep -E "Registers Per|Duration" $OUT/ncu-rows.txt | head -4
