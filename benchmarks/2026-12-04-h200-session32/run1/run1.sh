#!/usr/bin/env bash
# Session 32 run 1: session 31's two prepared diffs measured. .gpu/bench = HEAD 875f405 with
# next/panel-trsm.diff and next/pivot-test.diff applied; .gpu/bench_old = HEAD.
# Part 1: pivot test off the chain (bench's `whole-inv` column is pivot only; main rows are
# both) alternated with HEAD; PIVOT_RECIP=1 = also 1/p as one division.
# Part 2: the fuse sweep (default = both diffs; whole-inv = pivot diff only).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for b in bench bench_old; do xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
run() { echo "== $*"; timeout 40 "$@" --filter "potrf 1x1024|potrf 1x4096|potrf 64x1024|potrf 1x16384" --samples 5 2>&1 | grep -E "^potrf"; }
for t in 1 2; do
  run /tmp/bench_old
  run /tmp/bench
  PIVOT_RECIP=1 run /tmp/bench
done 2>&1 | tee $OUT/pivot.log
timeout 200 /tmp/bench --fuse-sweep --samples 5 > $OUT/fuse-sweep.log 2>&1; echo "sweep rc=$?"
grep -v "^bench on" $OUT/fuse-sweep.log
