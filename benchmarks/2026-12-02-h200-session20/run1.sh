#!/usr/bin/env bash
# Session 20, run 1: the mma.sync 3xTF32 GEMM (gemm_mma.rs) first runs: its GEMM tests and
# potrf with it on the large updates; the tensor-core sweep (TFLOP/s, error, potrf with each
# kernel); potrf with the default (SIMT) against cuSOLVER, same run; geqrf / orgqr with the
# mma kernel for updates >= 1024 x 1024 against the default; the geqrf suite on ee7c941+
# (the 32 KiB fallback's tests, never run on the H200).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/chol_gemm_tests.log 2>&1; echo "cholesky gemm tests rc=$?"
grep -E "test result|panicked|FAILED|^test " -A3 $OUT/chol_gemm_tests.log | head -30
timeout 200 /tmp/bench --tc-sweep --samples 5 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
tail -16 $OUT/tc-sweep.log
F="potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
timeout 100 /tmp/bench --filter "$F" --samples 5 --json $OUT/potrf.json > $OUT/bench-potrf.log 2>&1; echo "bench potrf rc=$?"
timeout 100 python3 .gpu/torch_anchor.py $OUT/potrf.json --out $OUT/potrf-merged.json > $OUT/anchor-potrf.log 2>&1; echo "anchor rc=$?"
grep -E "potrf" $OUT/bench-potrf.log; grep -E "potrf" $OUT/anchor-potrf.log | head -8
Q="geqrf 1x4096x4096|geqrf 1x8192x8192|orgqr 1x4096x4096|orgqr 1x8192x8192"
timeout 90 /tmp/bench --filter "$Q" --samples 5 --qr-big-gemm mma > $OUT/bench-qr-mma.log 2>&1; echo "bench qr mma rc=$?"
timeout 90 /tmp/bench --filter "$Q" --samples 5 > $OUT/bench-qr-default.log 2>&1; echo "bench qr default rc=$?"
echo "== qr, mma for big updates"; grep -E "geqrf|orgqr" $OUT/bench-qr-mma.log
echo "== qr, default"; grep -E "geqrf|orgqr" $OUT/bench-qr-default.log
timeout 110 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf_tests.log 2>&1; echo "geqrf tests rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/geqrf_tests.log | head -8
