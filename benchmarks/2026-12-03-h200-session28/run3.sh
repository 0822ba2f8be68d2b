#!/usr/bin/env bash
# Session 28, run 3: the solve tests on the new code (batched doubling, the chain's inverse
# staged ahead of its wait), the chain sweep, the whole-block sweep on batches, and the
# bench's solve and potrf rows against cuSOLVER on the same inputs.
# Carry: .gpu from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 240 /tmp/cholesky_tests --test-threads=1 triangular_solves inverse_blocks cholesky_solve_and_inverse strided_views > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|panicked" $OUT/tests.log | head -12
timeout 90 /tmp/bench --trsv-sweep --samples 7 > $OUT/trsv-sweep.log 2>&1; echo "trsv-sweep rc=$?"
grep -v "^\s*$" $OUT/trsv-sweep.log | tail -12 | cut -c1-100
timeout 170 /tmp/bench --inv-rhs-sweep --samples 5 --inv-rhs-shapes 2x4096x128,8x2048x128,8x2048x32,64x1024x128,16x1024x64,1x1024x128,1x4096x32 > $OUT/inv-rhs-sweep.log 2>&1; echo "inv-rhs-sweep rc=$?"
grep -v "^\s*$" $OUT/inv-rhs-sweep.log | tail -14 | cut -c1-120
timeout 100 /tmp/bench --filter "solve|potrf 2x8192" --samples 5 --json $OUT/solve.json > $OUT/bench-solve.log 2>&1; echo "bench rc=$?"
timeout 80 python3 .gpu/torch_anchor.py $OUT/solve.json --out $OUT/solve-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "solve|potrf" $OUT/anchor.log | head -12 | cut -c1-100
