#!/usr/bin/env bash
# Session 37, device call 4: the new lower default (two trips past 16 cubes per
# multiprocessor) — batched_small on the H200 (it asserts the cutoffs with the H200's count)
# and the default's times. .gpu/: `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
for rep in 1 2; do for shape in 1024x64 2048x64 2560x64 4096x64; do
  t=$(timeout 30 /tmp/bench --potrf-probe $shape --samples 9 2>&1 | grep "ms per call" | sed 's/.*device \([0-9.]*\).*/\1/')
  echo "$rep $shape lower default $t"
done; done | tee $OUT/x/default.log
timeout 240 /tmp/cholesky_tests --test-threads=1 --exact cuda::batched_small > $OUT/x/batched_small.log 2>&1; echo "batched_small rc=$?"
grep -E "test result|panicked" $OUT/x/batched_small.log | cut -c1-300
tar cJf $OUT/run4.tar.xz -C $OUT/x .
