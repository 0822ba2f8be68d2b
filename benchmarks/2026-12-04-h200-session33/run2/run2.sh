#!/usr/bin/env bash
# Session 33 run 2: the rows kernel's vector load and store (`rows`) against its scalar path
# (`scalar`, the kernel of c376f8c) in one sweep; ncu's registers and duration of both on
# 1024 × 64²; cuSOLVER on the small batches; the tests that run the rows kernel.
# .gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 150 /tmp/bench --small-sweep --samples 9 > $OUT/small-sweep.log 2>&1; echo "sweep rc=$?"
timeout 120 /tmp/bench --filter "potrf 1024x64|potrf 4096x32|potrf 256x256|potrf 64x1024" --samples 9 --json $OUT/ours.json > $OUT/bench.log 2>&1; echo "bench rc=$?"
PYTHONUNBUFFERED=1 timeout 120 python3 .gpu/torch_anchor.py $OUT/ours.json --out $OUT/merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
# ncu: the default (vector) kernel of the bench's 1024 x 64 row; launch stats and duration
NCU="ncu --clock-control none --cache-control none --section LaunchStats --section SpeedOfLight --section WarpStateStats --section InstructionStats"
timeout 90 $NCU -k regex:rows_kernel -s 2 -c 1 /tmp/bench --filter "potrf 1024x64" --samples 1 --quick > $OUT/ncu-vec.txt 2>&1; echo "ncu rc=$?"
grep -E "Duration|Registers Per|Warp Cycles Per Issued|Executed Instructions  |Issue Slots" $OUT/ncu-vec.txt | head -8
for t in batched_small strided_views nonfinite_and_errors info_reports_first_failure; do
  timeout 150 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/$t.log | cut -c1-300
done
echo "== anchor"; tail -6 $OUT/anchor.log
echo "== sweep"; cat $OUT/small-sweep.log
