#!/usr/bin/env bash
# Session 25, run 2: potrf by leaf order (64, the default, against 128 with 64- or 128-row
# GEMM tiles; 3×TF32 and TF32 updates), then potrf against cuSOLVER (PyTorch) on the same
# inputs. Carry: .gpu with bench.xz (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 300 /tmp/bench --leaf-order-sweep --samples 5 > $OUT/leaf-order-sweep.log 2>&1; echo "leaf-order-sweep rc=$?"
F="potrf 1x4096|potrf 1x16384|potrf 1024x64|potrf 64x1024"
timeout 90 /tmp/bench --filter "$F" --samples 5 --json $OUT/potrf.json > $OUT/bench-potrf.log 2>&1; echo "bench rc=$?"
timeout 60 python3 .gpu/torch_anchor.py $OUT/potrf.json --out $OUT/potrf-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "potrf" $OUT/anchor.log | head -10
grep -v "^\s*$" $OUT/leaf-order-sweep.log | tail -8
