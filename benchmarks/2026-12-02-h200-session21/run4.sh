#!/usr/bin/env bash
# Session 21, run 4: with the mma.sync kernel as the large-update GEMM, which updates should
# take it (big_from, big_min_k) and where the right-looking cutoff should sit (blocked_below).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 220 /tmp/bench --big-sweep --samples 5 > $OUT/big-sweep.log 2>&1; echo "big-sweep rc=$?"
tail -6 $OUT/big-sweep.log
