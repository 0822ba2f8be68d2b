#!/usr/bin/env bash
# Session 16, run 2: the panel kernel (each step's diagonal block and panel in one launch, no inverse)
# against the fused SYRK + leaf and separate launches (fuse sweep); ncu per-kernel times of one potrf
# 4096 on the panel path; the Cholesky suite.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/gpu.txt
timeout 240 /tmp/bench --fuse-sweep --samples 5 2>&1 | tee $OUT/fuse-sweep.log
timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --launch-count 300 --csv /tmp/bench --filter "potrf 1x4096" --samples 1 --quick > $OUT/ncu-4096-times.csv 2>&1
echo "ncu 4096 rc=$? lines=$(wc -l < $OUT/ncu-4096-times.csv)"
timeout 330 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" -A2 $OUT/cholesky_tests.log | head -40
