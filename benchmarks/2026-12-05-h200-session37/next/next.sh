#!/usr/bin/env bash
# Prepared in session 37 (no device time left): the register panel kernel with the rescaled
# column's R entries scaled back when H is written (`regs-rescale-whole-column.diff`), so the
# column step needs no extra factor. ptxas 13 counts its column step (the path without a
# rescale) at 555 instructions at 1024 × 32 against 595 committed and 542 before the rescale
# existed (512 × 32: 367 / 387 / 353; 256 × 32: 327 / 335 / 313). It passed the geqrf suite
# on lavapipe (the register panels there take panels up to ~150 rows); never on the H200.
# Pack here, then one device call (~6 min), carry [".gpu"]:
#   TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh && mv .gpu/bench.xz .gpu/bench_old.xz   # committed kernel
#   git apply benchmarks/2026-12-05-h200-session37/next/regs-rescale-whole-column.diff
#   TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh                                   # the diff's
# .gpu/ then holds geqrf_tests.xz (the diff's), bench.xz (the diff's), bench_old.xz (committed):
# about 63 MB with the 7 MB tree, under the 64 MiB carry limit.
# Keep the diff if the suite passes and geqrf 40 × 176², 40 × 352², 32 × 512² are not slower.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf_tests.log 2>&1; echo "geqrf_tests rc=$?"
grep -E "test result|panicked" $OUT/x/geqrf_tests.log | cut -c1-300
F="geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 32x512x512|geqrf 1x4096x4096"
for rep in 1 2; do for b in bench_old bench; do
  timeout 80 /tmp/$b --filter "$F" --samples 9 > $OUT/x/qr-$b-$rep.log 2>&1; echo "$b round $rep rc=$?"
  grep -E "^geqrf" $OUT/x/qr-$b-$rep.log | cut -c1-60
done; done
tar cJf $OUT/next.tar.xz -C $OUT/x .
