#!/usr/bin/env bash
# Session 32 run 5: the fused SYRK + next diagonal block on tiles of twice the leaf's order
# for large updates (`CholeskyParams::fused_wide_from`, rejected, not in the tree: run5/rejected-wide-fused-tiles.diff
# on 0e65615). The fused test on the H200 first (it runs the wide tiles on every fused step
# and from 2·nb rows), then the fuse sweep (default = 64 × 64 tiles; wN = 128 × 128 tiles for
# updates of ≥ N rows). .gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 60 /tmp/cholesky_tests --test-threads=1 --exact cuda::fused_syrk_leaf > $OUT/fused.log 2>&1; echo "fused rc=$?"
grep -E "^test |test result|panicked" $OUT/fused.log | cut -c1-300
timeout 210 /tmp/bench --fuse-sweep --samples 5 > $OUT/fuse-sweep.log 2>&1; echo "sweep rc=$?"
grep -v "^bench on" $OUT/fuse-sweep.log
