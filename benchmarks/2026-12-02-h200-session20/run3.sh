#!/usr/bin/env bash
# Session 20, run 3: the mma.sync kernel on scalar registers (gpu_asm), the Cholesky ops'
# default for large updates in this build: its GEMM tests and potrf with it on the large
# updates first; if they pass, the tensor-core sweep, potrf against cuSOLVER (same run) and
# the rest of the Cholesky suite.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/chol_gemm_tests.log 2>&1; rc=$?; echo "cholesky gemm tests rc=$rc"
grep -E "test result|panicked|FAILED|^test " -A3 $OUT/chol_gemm_tests.log | head -30
[ $rc = 0 ] || exit 1
timeout 150 /tmp/bench --tc-sweep --samples 5 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
tail -11 $OUT/tc-sweep.log
F="potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384|potrf 64x1024|potrf 256x256|cholesky_solve 1x16384"
timeout 100 /tmp/bench --filter "$F" --samples 5 --json $OUT/potrf.json > $OUT/bench-potrf.log 2>&1; echo "bench potrf rc=$?"
timeout 100 python3 .gpu/torch_anchor.py $OUT/potrf.json --out $OUT/potrf-merged.json > $OUT/anchor-potrf.log 2>&1; echo "anchor rc=$?"
grep -E "potrf|solve" $OUT/anchor-potrf.log | head -10
timeout 300 /tmp/cholesky_tests --test-threads=1 --skip gemm_ --skip large_matrix > $OUT/cholesky_tests.log 2>&1; echo "cholesky tests rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/cholesky_tests.log | head -8
