#!/usr/bin/env bash
# Prepared in session 31, not run (no device time left): right-looking steps solve their panel
# from the leaf's diagonal sub-block inverses (trsm/panel.rs, CholeskyParams::panel_trsm,
# on by default in the diff), so the leaves skip their W and X phases (6-7 % of potrf 4096 in
# run 3). Apply next/panel-trsm.diff on eb2969c, then `TESTS=cholesky BENCH=1 bash
# scripts/gpu-pack.sh` here. The fuse sweep's `whole-inv` column is the committed path.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 200 /tmp/bench --fuse-sweep --samples 5 > $OUT/fuse-sweep.log 2>&1; echo "sweep rc=$?"
grep -v "^bench on" $OUT/fuse-sweep.log
timeout 380 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky.log 2>&1; echo "cholesky rc=$?"
grep -E "^test |test result|panicked|FAILED" $OUT/cholesky.log | head -24
