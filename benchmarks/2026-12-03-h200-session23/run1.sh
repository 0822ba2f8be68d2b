#!/usr/bin/env bash
# Session 23, run 1: the tensor-core GEMM sweep with the tilings that fit 16 warps per
# multiprocessor by local ptxas registers (session 22's list) and the mma kernel's new
# plain-TF32 mode (one product per step); TFLOP/s at 4096³, error, potrf 4096/8192/16384
# with each kernel on the large updates. Then the Cholesky suite's GEMM tests and
# large_matrix. Carry: .gpu with bench.xz and cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 280 /tmp/bench --tc-sweep --samples 7 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
timeout 150 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/cholesky_tests.log 2>&1; echo "cholesky gemm_ + large_matrix rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky_tests.log | head -12
cat $OUT/tc-sweep.log
# Where potrf 16384 spends its time: per-kernel durations of one call (warm caches).
timeout 150 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --launch-count 3000 /tmp/bench --filter "potrf 1x16384" --samples 1 --quick > $OUT/ncu-16384.txt 2>&1
echo "ncu 16384 rc=$? lines=$(wc -l < $OUT/ncu-16384.txt)"
python3 scripts/ncu_sum.py $OUT/ncu-16384.txt --by-grid 2>&1 | head -40
