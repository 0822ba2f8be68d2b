#!/usr/bin/env bash
# Session 22, run 3: the rows kernel with square-root-free column steps (registers keep the
# unscaled columns; one reciprocal per step; L scaled once at the end). Same run, alternated:
# the previous tree's bench (`bench_old`, 92fa32f) and the new one, on the batched potrf
# rows, then each binary's small-matrix sweep (the rows default and the other kernels).
# Carry: .gpu with bench.xz and bench_old.xz only (64 MiB limit).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
F="potrf 1024x64|potrf 4096x32|potrf 256x256|potrf 64x1024|potrf 1x1024"
for i in 1 2 3; do
  for b in bench_old bench; do
    timeout 90 /tmp/$b --filter "$F" --samples 9 > $OUT/$b-main-$i.log 2>&1; echo "$b $i rc=$?"
  done
done
for b in bench_old bench; do
  timeout 150 /tmp/$b --small-sweep --samples 9 > $OUT/$b-small-sweep.log 2>&1; echo "$b small-sweep rc=$?"
done
for i in 1 2 3; do for b in bench_old bench; do echo "== $b $i"; grep -E "^potrf" $OUT/$b-main-$i.log; done; done
for b in bench_old bench; do echo "== $b"; grep -A9 "^batch x n" $OUT/$b-small-sweep.log; done
