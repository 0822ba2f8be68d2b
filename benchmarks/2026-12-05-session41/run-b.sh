#!/usr/bin/env bash
# Session 41, run b (carry [".gpu", ".gpu-next/fused/bench.xz"]; .gpu/ as for run a):
# (1) the QR rows of issue 3 and the qr_v2 set against cuSOLVER (PyTorch) on the same inputs
#     (session 40's defaults were never anchored); (2) GRID_FROM_ROWS: grids from two cubes
#     (--qr-panel-grid 128) against the default (grids from 512 rows) and none (0);
# (3) potrf: the committed bench against session 39's fused-staged diff
#     (.gpu-next/fused/bench.xz, b6868ed + fused-staged.diff), two rounds, alternating.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
xz -dc .gpu-next/fused/bench.xz > /tmp/bench_fused && chmod +x /tmp/bench_fused
F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 1x4096x4096|geqrf 1x8192x8192|qr reduced 1x4096x4096|potrf 1x4096"
timeout 220 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/x/bench-anchor.log 2>&1
echo "bench+anchor rc=$?"; cp $OUT/anchor.log $OUT/ours.json $OUT/merged.json $OUT/x/ 2>/dev/null
S="geqrf 40x176x176|geqrf 40x352x352|geqrf 32x512x512|geqrf 1x4096x4096"
for g in "" "--qr-panel-grid 128" "--qr-panel-grid 0"; do
  f=$OUT/x/small$(echo "$g" | tr -c 'a-z0-9\n' '_').log
  timeout 45 /tmp/bench --filter "$S" --samples 7 $g > $f 2>&1
  echo "small '$g' rc=$?"; grep -E "^geqrf" $f | cut -c1-100
done
C="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 64x1024"
for rep in 1 2; do for b in bench bench_fused; do
  timeout 50 /tmp/$b --filter "$C" --samples 7 > $OUT/x/chol-$b-$rep.log 2>&1
  echo "$b round $rep rc=$?"; grep -E "^potrf" $OUT/x/chol-$b-$rep.log | cut -c1-100
done; done
echo "== anchor"; tail -16 $OUT/x/anchor.log
tar cJf $OUT/run-b.tar.xz -C $OUT/x . && rm -rf $OUT/x
