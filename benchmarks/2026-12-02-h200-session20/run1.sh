#!/usr/bin/env bash
# Session 20, run 1: the mma.sync 3xTF32 GEMM (gemm_mma.rs) first runs: its GEMM tests and
# potrf with it on the large updates; the tensor-core sweep (TFLOP/s, error, potrf); the
# geqrf suite on ee7c941+ (the 32 KiB fallback's tests, never run on the H200).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/chol_gemm_tests.log 2>&1; echo "cholesky gemm tests rc=$?"
grep -E "test result|panicked|FAILED|^test " -A3 $OUT/chol_gemm_tests.log | head -30
timeout 200 /tmp/bench --tc-sweep --samples 5 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
cat $OUT/tc-sweep.log | tail -20
timeout 110 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf_tests.log 2>&1; echo "geqrf tests rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/geqrf_tests.log | head -8
