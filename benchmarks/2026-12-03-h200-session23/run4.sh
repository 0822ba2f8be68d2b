#!/usr/bin/env bash
# Session 23, run 4 (final tree): the whole Cholesky suite on the H200; potrf and the solves
# against cuSOLVER (PyTorch) on the same inputs with the default large-update GEMM, with its
# sums in shared memory (mma-sh) and with plain-TF32 products (mma-tf32); geqrf with the mma
# kernel on its large updates against its default. Carry: .gpu with bench.xz and
# cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 260 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky_tests.log | head -20
F="potrf 1x1024|potrf 1x4096|potrf 1x8192|potrf 1x16384|potrf 64x1024|potrf 1024x64|cholesky_solve 1x16384"
for g in default mma-sh mma-tf32; do
  extra=""; [ $g != default ] && extra="--chol-big-gemm $g"
  timeout 60 /tmp/bench --filter "$F" --samples 5 $extra --json $OUT/potrf-$g.json > $OUT/bench-potrf-$g.log 2>&1; echo "bench $g rc=$?"
done
timeout 50 python3 .gpu/torch_anchor.py $OUT/potrf-default.json --out $OUT/potrf-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "potrf|cholesky_solve" $OUT/anchor.log | head -10
for g in default mma-sh mma-tf32; do echo "== $g"; grep -E "^potrf|^cholesky_solve" $OUT/bench-potrf-$g.log; done
for g in default mma; do
  extra=""; [ $g != default ] && extra="--qr-big-gemm $g"
  timeout 40 /tmp/bench --filter "geqrf 1x4096x4096|geqrf 1x8192x8192" --samples 5 $extra > $OUT/bench-geqrf-$g.log 2>&1; echo "geqrf $g rc=$?"
  grep -E "^geqrf" $OUT/bench-geqrf-$g.log
done
