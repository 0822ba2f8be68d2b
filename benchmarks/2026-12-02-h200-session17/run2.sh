#!/usr/bin/env bash
# Session 17, run 2: the rows kernel with its units as a grid of column groups (small_cols) in the
# small sweep; the cyclic diagonal-block kernel alone (leaf sweep --quick) and in potrf (fuse
# sweep: cyclic, cyc64, cyc128 columns); batched_small, leaf_kernels and fused_syrk_leaf on the H200.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 240 /tmp/cholesky_tests --test-threads=1 batched_small leaf_kernels fused_syrk_leaf > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" -A2 $OUT/cholesky_tests.log | head -20
timeout 150 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 60 /tmp/bench --leaf-sweep --quick --samples 9 2>&1 | tee $OUT/leaf-alone.log
timeout 240 /tmp/bench --fuse-sweep --samples 5 2>&1 | tee $OUT/fuse-sweep.log
