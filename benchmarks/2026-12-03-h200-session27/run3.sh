#!/usr/bin/env bash
# Session 27, run 3 (runs 1 and 2 got no machine; this is both in one call, measurements
# first): `bench --trsv-sweep` (GEMM recursion / per-block launches / one launch),
# `bench --inv-rhs-sweep` (solves with fewer right-hand sides than inv_block: recursion to the
# leaves against whole inverted blocks of order up to inv_rhs·k), the default solves against
# cuSOLVER (PyTorch) on the same inputs, then the whole Cholesky suite in the time left (a
# later call runs what it did not reach). On 7f6eebc; carry .gpu with bench.xz and
# cholesky_tests.xz (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
start=$(date +%s)
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 120 /tmp/bench --trsv-sweep --samples 5 > $OUT/trsv-sweep.log 2>&1; echo "trsv-sweep rc=$?"
grep -v "^\s*$" $OUT/trsv-sweep.log | head -12
timeout 150 /tmp/bench --inv-rhs-sweep --samples 5 > $OUT/inv-rhs-sweep.log 2>&1; echo "inv-rhs-sweep rc=$?"
grep -v "^\s*$" $OUT/inv-rhs-sweep.log | tail -21 | cut -c1-110
timeout 60 /tmp/bench --filter "solve" --samples 5 --json $OUT/solve.json > $OUT/bench-solve.log 2>&1; echo "bench rc=$?"
timeout 60 python3 .gpu/torch_anchor.py $OUT/solve.json --out $OUT/solve-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "solve" $OUT/anchor.log | head -8 | cut -c1-100
left=$(( 590 - ($(date +%s) - start) ))
timeout $left /tmp/cholesky_tests --test-threads=3 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$? (limit $left s)"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | head -20
