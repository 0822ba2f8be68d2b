#!/usr/bin/env bash
# Session 34 run 6: potrf's input copy (with its non-finite check) in 4-vectors along rows.
# ncu: the copy kernel's time in the first call of potrf 256 × 256² and 64 × 1024² (run 5 had
# 53.4 and 198 µs element by element); the potrf rows; the Cholesky tests whose potrf goes past
# the small kernels on contiguous or strided inputs. .gpu/ from `TESTS=cholesky BENCH=1 bash
# scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for c in "potrf 256x256" "potrf 64x1024"; do
  timeout 40 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum -k regex:copy_kernel \
    --launch-count 2 /tmp/bench --filter "$c" --samples 1 2>&1 | grep -E "copy_kernel|gpu__time" | head -4
done
timeout 80 /tmp/bench --filter "potrf 1x1024|potrf 1x4096|potrf 1x16384|potrf 64x1024|potrf 256x256" --samples 5 > $OUT/bench.log 2>&1; echo "bench rc=$?"
grep -E "potrf" $OUT/bench.log | cut -c1-150
for t in nonfinite_and_errors strided_views sizes_straddle_thresholds info_reports_first_failure conditioning; do
  timeout 45 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/$t.log | cut -c1-300
done
