#!/usr/bin/env bash
# Session 38, device call 2: the mma GEMM split on read as the default (3×TF32 and plain
# TF32). potrf 1 × 4096 / 8192 / 16384 with the default and with TF32 updates, cuSOLVER on the
# same inputs; then the whole Cholesky suite (its GEMM tests run both splits).
# .gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
F="potrf 1x4096|potrf 1x8192|potrf 1x16384"
timeout 100 /tmp/bench --filter "$F" --samples 7 --json $OUT/x/ours.json > $OUT/x/bench.log 2>&1; echo "bench rc=$?"
timeout 60 /tmp/bench --filter "$F" --samples 7 --chol-big-gemm mma-tf32 > $OUT/x/bench-tf32.log 2>&1; echo "bench tf32 rc=$?"
timeout 60 /tmp/bench --filter "$F" --samples 7 --chol-big-gemm mma-stored > $OUT/x/bench-stored.log 2>&1; echo "bench stored rc=$?"
PYTHONUNBUFFERED=1 timeout 90 python3 .gpu/torch_anchor.py $OUT/x/ours.json --out $OUT/x/merged.json > $OUT/x/anchor.log 2>&1; echo "anchor rc=$?"
timeout 330 /tmp/cholesky_tests --test-threads=1 > $OUT/x/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked" $OUT/x/cholesky_tests.log | cut -c1-300
tar cJf $OUT/run2.tar.xz -C $OUT/x .
for f in bench bench-tf32 bench-stored; do echo "== $f"; grep -E "^potrf" $OUT/x/$f.log | cut -c1-120; done
echo "== anchor"; tail -6 $OUT/x/anchor.log
