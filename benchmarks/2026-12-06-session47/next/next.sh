#!/usr/bin/env bash
# Prepared in session 47 for the next session (pack on the tree first:
# `TESTS="geqrf cholesky" BENCH=1 bash scripts/gpu-pack.sh`; carry [".gpu"]; ask for an H200):
#   bash benchmarks/2026-12-06-session47/next/next.sh anchor   # cuSOLVER (PyTorch) on the same inputs, ~5 min
#   bash benchmarks/2026-12-06-session47/next/next.sh geqrf    # the geqrf suite (~300 s on an H100)
#   bash benchmarks/2026-12-06-session47/next/next.sh chol     # the Cholesky suite (~400 s on an H100: two calls may be needed)
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
case "${1:-anchor}" in
  anchor)
    F="potrf 1x4096|potrf 1x16384|geqrf 1x4096x4096|geqrf 32x512x512|geqrf 1x8192x8192|qr reduced 1x4096x4096|geqrf 8x2048x2048|geqrf 2x4096x4096"
    timeout 540 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/anchor-run.log 2>&1
    echo "bench+anchor rc=$? t=$SECONDS" | tee -a $R; tail -14 $OUT/anchor.log | tee -a $R ;;
  geqrf)
    timeout 570 /tmp/geqrf_tests --test-threads=1 > $OUT/tests.log 2>&1
    echo "geqrf suite rc=$? t=$SECONDS" | tee -a $R
    grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R ;;
  chol)
    # One test thread: `graph_replay` captures a stream, so no other test may launch meanwhile.
    timeout 570 /tmp/cholesky_tests --test-threads=1 ${SKIP:+--skip $SKIP} > $OUT/tests.log 2>&1
    echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
    grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R ;;
esac
