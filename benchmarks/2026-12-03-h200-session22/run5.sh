#!/usr/bin/env bash
# Session 22, run 5: as run 3, with the square-root-free rows kernel reworked to keep its
# registers at nb = 32 (run 3: 4096 × 32² 14 % slower, one more wave): C goes to `t` unscaled
# and the store multiplies by the columns' 1/√d_k. Same run, alternated: bench_old (92fa32f)
# and the new bench on the batched potrf rows; then the new small-matrix sweep.
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
timeout 150 /tmp/bench --small-sweep --samples 9 > $OUT/bench-small-sweep.log 2>&1; echo "small-sweep rc=$?"
for i in 1 2 3; do for b in bench_old bench; do echo "== $b $i"; grep -E "^potrf" $OUT/$b-main-$i.log; done; done
grep -A9 "^batch x n" $OUT/bench-small-sweep.log
