#!/usr/bin/env bash
# Session 32 run 3 (1864386, the pivot test off the square root's chain): the whole Cholesky
# suite on the H200, then the potrf rows against cuSOLVER (PyTorch) on the same inputs.
# .gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 400 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky.log 2>&1; echo "cholesky rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky.log | head -24
timeout 90 /tmp/bench --filter "potrf 1x1024|potrf 1x4096|potrf 1x16384|potrf 64x1024|potrf 1024x64|potrf 4096x32|potrf 256x256|potrf 1x2048|potrf 1x8192" --samples 5 --json $OUT/potrf.json > $OUT/bench.log 2>&1; echo "bench rc=$?"
grep -E "^(case|potrf)" $OUT/bench.log
timeout 150 python3 .gpu/torch_anchor.py $OUT/potrf.json --out $OUT/anchor.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
tail -20 $OUT/anchor.log
