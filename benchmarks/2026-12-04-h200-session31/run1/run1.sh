#!/usr/bin/env bash
# Session 31, run 1: each fused right-looking step also solves the next step's panel
# (CholeskyParams::fused_panel, the new default) against the panel by its own TRSM launch
# (`panel-trsm` column of --fuse-sweep), then potrf against cuSOLVER, then the Cholesky suite.
# Carry: .gpu from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 200 /tmp/bench --fuse-sweep --samples 5 > $OUT/fuse-sweep.log 2>&1; echo "sweep rc=$?"
grep -v "^bench on" $OUT/fuse-sweep.log
timeout 90 /tmp/bench --filter "potrf 1x4096|potrf 1x16384|potrf 1x1024|potrf 64x1024" --samples 5 --json $OUT/o.json > $OUT/bench.log 2>&1; echo "bench rc=$?"
timeout 90 python3 .gpu/torch_anchor.py $OUT/o.json --out $OUT/m.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
tail -12 $OUT/anchor.log
timeout 380 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky.log 2>&1; echo "cholesky rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky.log | head -24
