#!/usr/bin/env bash
# Session 37, device call 3: where lower's two-trip load starts to win (call 2: it loses 4 % at
# 2048 × 64², wins 11 % at 4096 × 64²), and upper's two loads beside it. .gpu/: bench.xz.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
for rep in 1 2; do for shape in 2560x64 3072x64 8192x64 4096x48 8192x48 16384x32; do
  for v in "lower 1" "lower 2" "upper 1" "upper 2"; do
    set -- $v
    args="--small-load $2"; [ $1 = upper ] && args="--upper $args"
    t=$(timeout 30 /tmp/bench --potrf-probe $shape $args --samples 9 2>&1 | grep "ms per call" | sed 's/.*device \([0-9.]*\).*/\1/')
    echo "$rep $shape $1 load=$2 $t"
  done
done; done | tee $OUT/x/probe2.log
tar cJf $OUT/probe2.tar.xz -C $OUT/x .
