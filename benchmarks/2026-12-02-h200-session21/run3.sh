#!/usr/bin/env bash
# Session 21, run 3: the mma.sync kernel is now the Cholesky default for the large updates
# (config.rs); a `sums_in_shared` option frees its 64 sum registers (run 2: 255 registers and
# spills). Tensor-core sweep (shared-sums tilings), potrf against cuSOLVER with the new
# default, then the whole Cholesky suite on the H200.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 200 /tmp/bench --tc-sweep --samples 5 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
tail -7 $OUT/tc-sweep.log
F="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384|potrf 64x1024"
timeout 110 /tmp/bench --filter "$F" --samples 5 --json $OUT/potrf.json > $OUT/bench-potrf.log 2>&1; echo "bench potrf rc=$?"
timeout 100 python3 .gpu/torch_anchor.py $OUT/potrf.json --out $OUT/potrf-merged.json > $OUT/anchor-potrf.log 2>&1; echo "anchor rc=$?"
grep -E "^potrf" $OUT/bench-potrf.log; grep -E "potrf" $OUT/anchor-potrf.log | head -8
timeout 270 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/cholesky_tests.log | head -12
