#!/usr/bin/env bash
# Session 34 run 1: the rows kernel's vector I/O for upper (4-vectors down the columns of the
# transposed views, staged word by word): the small sweep, lower and upper, alternating the
# default with the scalar path; then the Cholesky tests that reach the batched small kernels.
# .gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $OUT/gpu.txt
timeout 200 /tmp/bench --small-sweep --samples 9 > $OUT/small-sweep.log 2>&1; echo "sweep rc=$?"
for t in batched_small graph_replay info_reports_first_failure nonfinite_and_errors strided_views sizes_straddle_thresholds; do
  timeout 200 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/$t.log | cut -c1-300
done
echo "== sweep"; cat $OUT/small-sweep.log
