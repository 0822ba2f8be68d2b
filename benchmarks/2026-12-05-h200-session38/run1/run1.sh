#!/usr/bin/env bash
# Session 38, device call 1 (carry [".gpu"] with bench.xz and bench_old.xz only):
# 1. `--tc-sweep`: the mma GEMM split on read (f32 windows, hi/lo formed after each fragment
#    read) against the default (hi/lo stored), 4096³ TFLOP/s, error, potrf 4096/8192/16384.
# 2. geqrf, be4b746 (bench_old) against the register panel's whole-column rescale (bench),
#    alternated, two rounds (session 37's next/next.sh timing part).
# Pack: bash scripts/gpu-pack-old.sh be4b746 (the committed bench as bench_old.xz), then
#   TESTS="geqrf cholesky" BENCH=1 bash scripts/gpu-pack.sh and move the *_tests.xz aside.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
timeout 300 /tmp/bench --tc-sweep --samples 5 > $OUT/x/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
F="geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 32x512x512|geqrf 1x4096x4096"
for rep in 1 2; do for b in bench_old bench; do
  timeout 80 /tmp/$b --filter "$F" --samples 9 > $OUT/x/qr-$b-$rep.log 2>&1; echo "$b round $rep rc=$?"
  grep -E "^geqrf" $OUT/x/qr-$b-$rep.log | cut -c1-60
done; done
tar cJf $OUT/run1.tar.xz -C $OUT/x .
cat $OUT/x/tc-sweep.log | cut -c1-200
