#!/usr/bin/env bash
# Session 24, run 2: run 1 with the copy back in B's orientation (consecutive stores) and the default adapted to every leaf. The whole Cholesky
# suite on the H200 (every GEMM kernel's tile_at changed: A-lower K skipping); the inv_block
# sweep with 3×TF32 and TF32 updates; potrf against cuSOLVER (PyTorch) on the same inputs with
# the new default and with TF32 updates; one potrf 16384 under ncu (per-kernel times).
# Carry: .gpu with bench.xz and cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 300 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky_tests.log | head -24
timeout 240 /tmp/bench --inv-sweep --samples 5 > $OUT/inv-sweep.log 2>&1; echo "inv-sweep rc=$?"
cat $OUT/inv-sweep.log | grep -v "^\s*$" | tail -14
F="potrf 1x4096|potrf 1x8192|potrf 1x16384|potrf 64x1024"
for g in default mma-tf32; do
  extra=""; [ $g != default ] && extra="--chol-big-gemm $g"
  timeout 60 /tmp/bench --filter "$F" --samples 5 $extra --json $OUT/potrf-$g.json > $OUT/bench-potrf-$g.log 2>&1; echo "bench $g rc=$?"
done
timeout 50 python3 .gpu/torch_anchor.py $OUT/potrf-default.json --out $OUT/potrf-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "potrf" $OUT/anchor.log | head -10
for g in default mma-tf32; do echo "== $g"; grep -E "^potrf" $OUT/bench-potrf-$g.log; done
timeout 120 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --launch-count 600 \
  /tmp/bench --filter "potrf 1x16384" --samples 1 > $OUT/ncu-16384.txt 2>&1; echo "ncu rc=$?"
python3 scripts/ncu_sum.py $OUT/ncu-16384.txt --by-grid 2>&1 | tail -40
xz -9 $OUT/ncu-16384.txt
