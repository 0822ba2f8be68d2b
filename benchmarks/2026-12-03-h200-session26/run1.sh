#!/usr/bin/env bash
# Session 26, run 1: the fused launch that also solves the next step's panel
# (CholeskyParams::fuse_panel): its test first (a hang would show here, cut at 90 s), then
# `bench --panel-sweep` (panel in the fused launch against the TRSM GEMM, 3×TF32 and TF32
# updates), then potrf against cuSOLVER (PyTorch) on the same inputs.
# Carry: .gpu with bench.xz and cholesky_tests.xz (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 90 /tmp/cholesky_tests --test-threads=1 fused_syrk_leaf right_looking_cutoff > $OUT/fused-test.log 2>&1; echo "fused tests rc=$?"
grep -E "^test |test result|panicked" $OUT/fused-test.log | head -6
timeout 200 /tmp/bench --panel-sweep --samples 5 > $OUT/panel-sweep.log 2>&1; echo "panel-sweep rc=$?"
F="potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
timeout 120 /tmp/bench --filter "$F" --samples 5 --json $OUT/potrf.json > $OUT/bench-potrf.log 2>&1; echo "bench rc=$?"
timeout 90 python3 .gpu/torch_anchor.py $OUT/potrf.json --out $OUT/potrf-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "potrf" $OUT/anchor.log | head -10
grep -v "^\s*$" $OUT/panel-sweep.log | tail -8
