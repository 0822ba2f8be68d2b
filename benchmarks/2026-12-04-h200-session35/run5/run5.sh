#!/usr/bin/env bash
# Session 35 run 5, the final kernels: upper's staging skewed (run 3), its block load in one
# trip where the batch is at most 8 cubes per multiprocessor, else two (run 4). .gpu/ from
# `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`. Probe times per call, then the Cholesky
# tests that reach the rows kernel.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for rep in 1 2; do for shape in 1024x64 4096x64 1024x48 16384x16; do for uplo in lower upper; do
  flag=""; [ $uplo = upper ] && flag="--upper"
  t=$(timeout 30 /tmp/bench --potrf-probe $shape $flag --samples 9 2>&1 | grep "ms per call" | sed 's/.*device \([0-9.]*\).*/\1/')
  echo "$rep $shape $uplo $t"
done; done; done | tee $OUT/x/probe.log
for t in batched_small sizes_straddle_thresholds strided_views nonfinite_and_errors info_reports_first_failure graph_replay; do
  timeout 240 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/x/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/x/$t.log | cut -c1-300
done
tar cJf $OUT/run5.tar.xz -C $OUT/x .
