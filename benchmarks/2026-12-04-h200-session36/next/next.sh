#!/usr/bin/env bash
# Prepared in session 36 (no device was lent), for the next session's first device call.
# .gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh` on the commit that adds this file.
# 1. Lower's vector load in one trip against two (`--small-load 1|2`, alternated, two rounds):
#    session 35's lead, lower 4096 × 64² at 77.7–78.0 µs against upper's 72.8–73.1 with two
#    trips. Upper's default is re-timed beside it.
# 2. `bench --small-sweep` (session 35's 4096 × 64² row and load1/load2 columns, never run on
#    the H200; now with lower's load1/load2 too).
# 3. The Cholesky tests that reach the rows kernel (batched_small now runs both loads, lower
#    and upper, at orders 32 and 64 and on the sliced order-60 input).
# Two device calls (each under the 600 s limit): `bash next.sh bench` (1, 2; ~5 min) and
# `bash next.sh tests` (3; ~4–5 min).
part=${1:-bench}
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
if [ "$part" = bench ]; then
for rep in 1 2; do for shape in 1024x64 4096x64 2048x64 1024x48 4096x32 16384x16; do
  for v in "lower 1" "lower 2" "upper -"; do
    set -- $v
    args=""; [ $1 = upper ] && args="--upper"; [ $2 != - ] && args="$args --small-load $2"
    t=$(timeout 30 /tmp/bench --potrf-probe $shape $args --samples 9 2>&1 | grep "ms per call" | sed 's/.*device \([0-9.]*\).*/\1/')
    echo "$rep $shape $1 load=$2 $t"
  done
done; done | tee $OUT/x/probe.log
timeout 240 /tmp/bench --small-sweep --samples 5 > $OUT/x/small-sweep.log 2>&1; echo "small-sweep rc=$?"
else
for t in batched_small sizes_straddle_thresholds strided_views; do
  timeout 240 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/x/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/x/$t.log | cut -c1-300
done
fi
tar cJf $OUT/next-$part.tar.xz -C $OUT/x .
