#!/usr/bin/env bash
# Session 25, run 1: with unfinished-side-stream.diff applied and `.gpu/` packed from that
# tree (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh), the whole Cholesky suite on the H200
# (it ran near 300 s in session 24: give it 420) and the inv-sweep with the side-stream
# columns. One device call (< 600 s). Carry: .gpu with bench.xz and cholesky_tests.xz.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 420 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky_tests.log | head -24
timeout 150 /tmp/bench --inv-sweep --samples 5 > $OUT/inv-sweep.log 2>&1; echo "inv-sweep rc=$?"
grep -v "^\s*$" $OUT/inv-sweep.log | tail -14
