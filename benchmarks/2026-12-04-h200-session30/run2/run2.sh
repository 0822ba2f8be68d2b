#!/usr/bin/env bash
# Session 30, run 2: the batched small Cholesky with rows cut into column groups
# (rows_split.rs, CholeskyParams::small_groups) against the rows kernel, alternated in one
# small sweep; then the whole Cholesky suite (the GEMM kernels' batch indices changed too).
# Carry: .gpu from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/bench --small-sweep --samples 9 > $OUT/small-sweep.log 2>&1; echo "sweep rc=$?"
cat $OUT/small-sweep.log | grep -v "^bench on"
timeout 400 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky.log 2>&1; echo "cholesky rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky.log | head -24
