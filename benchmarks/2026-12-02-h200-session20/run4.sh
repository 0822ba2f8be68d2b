#!/usr/bin/env bash
# Session 20, run 4: the whole Cholesky suite on the final tree (the mma.sync kernel opt-in,
# its tests in gemm_views, gemm_long_k and large_matrix).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 320 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky tests rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | head -24
