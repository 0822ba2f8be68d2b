#!/usr/bin/env bash
# Session 37, device call 2: geqrf old (9cc989c, before the column rescaling) against new,
# alternated, two rounds; then session 36's lower load probe (one trip against two), two rounds.
# .gpu/: bench.xz (TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh) and bench_old.xz (pack-old.sh).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 32x512x512|geqrf 1x4096x4096"
for rep in 1 2; do for b in bench_old bench; do
  timeout 100 /tmp/$b --filter "$F" --samples 9 > $OUT/x/qr-$b-$rep.log 2>&1; echo "$b round $rep rc=$?"
  grep -E "^geqrf" $OUT/x/qr-$b-$rep.log | cut -c1-100
done; done
for rep in 1 2; do for shape in 1024x64 4096x64 2048x64 1024x48 4096x32; do
  for v in "lower 1" "lower 2" "upper -"; do
    set -- $v
    args=""; [ $1 = upper ] && args="--upper"; [ $2 != - ] && args="$args --small-load $2"
    t=$(timeout 30 /tmp/bench --potrf-probe $shape $args --samples 9 2>&1 | grep "ms per call" | sed 's/.*device \([0-9.]*\).*/\1/')
    echo "$rep $shape $1 load=$2 $t"
  done
done; done | tee $OUT/x/probe.log
tar cJf $OUT/bench.tar.xz -C $OUT/x .
