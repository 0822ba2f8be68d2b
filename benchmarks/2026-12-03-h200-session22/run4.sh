#!/usr/bin/env bash
# Session 22, run 4 (ran last, after run 6): the final tree — the rows kernel unchanged
# (92fa32f's), gemm_mma's fetch mend (the K-tail branch inside `fetch_windows`). The Cholesky
# suite's GEMM tests and large_matrix (the mma kernel's updates) on the H200, then potrf
# against cuSOLVER (PyTorch) on the same inputs. Carry: .gpu with bench.xz and
# cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 200 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/cholesky_tests.log 2>&1; echo "cholesky gemm_ + large_matrix rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky_tests.log | head -12
F="potrf 1x1024|potrf 1x4096|potrf 1x8192|potrf 1x16384|potrf 64x1024|potrf 1024x64"
timeout 120 /tmp/bench --filter "$F" --samples 5 --json $OUT/potrf.json > $OUT/bench-potrf.log 2>&1; echo "bench rc=$?"
timeout 120 python3 .gpu/torch_anchor.py $OUT/potrf.json --out $OUT/potrf-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "potrf" $OUT/anchor.log | head -8
