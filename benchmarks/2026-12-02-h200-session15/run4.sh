#!/usr/bin/env bash
# Session 15, run 4: the recursion's diagonal blocks on the register-row kernel (rows_leaf: factor + inverse) against the fused blocked leaf; Cholesky suite
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/gpu.txt
timeout 150 /tmp/bench --fuse-sweep --samples 7 2>&1 | tee $OUT/fuse-sweep.log
timeout 400 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky rc=$?"
grep -E "^test |test result|FAILED|panicked" $OUT/cholesky_tests.log | head -24
