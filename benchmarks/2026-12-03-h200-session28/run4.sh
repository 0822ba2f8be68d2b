#!/usr/bin/env bash
# Session 28, run 4: the final tree (the whole-block defaults set from run 3's sweep): the
# solve tests, then the bench's solve and potrf rows against cuSOLVER on the same inputs.
# Carry: .gpu from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/cholesky_tests --test-threads=1 triangular_solves inverse_blocks cholesky_solve_and_inverse strided_views > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|panicked" $OUT/tests.log | head -12
timeout 100 /tmp/bench --filter "solve|potrf 2x8192" --samples 5 --json $OUT/solve.json > $OUT/bench-solve.log 2>&1; echo "bench rc=$?"
timeout 80 python3 .gpu/torch_anchor.py $OUT/solve.json --out $OUT/solve-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "solve|potrf" $OUT/anchor.log | head -12 | cut -c1-100
