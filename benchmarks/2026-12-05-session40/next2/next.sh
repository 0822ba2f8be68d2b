#!/usr/bin/env bash
# For the next device session (prepared in session 40, not run). Pack here:
#   TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh
# (.gpu-next/final/ holds packs from a8d5422; f061d9d changed host code since, so pack anew)
# then on the GPU (device tool, carry [".gpu"]), two calls:
#   bash benchmarks/2026-12-05-session40/next2/next.sh tests   # ~4–6 min
#   bash benchmarks/2026-12-05-session40/next2/next.sh bench   # ~5 min
# tests: the whole geqrf suite on the final defaults (grid panels from 512 rows, Vᵀ·C on
#   MMA_THIN). Session 40's run c passed 15 of 16 on the H100 with grids from two cubes; its
#   240 s limit cut `tsqr_panels_reconstruct`, and `grid_panels` has gained a 64-column case
#   (the default panel width of batched 4096-row matrices, whose grid panels have been timed,
#   2 × 4096² in 19.5 ms, but never checked for accuracy).
# bench: (1) the qr_v2 set and issue 3's rows against cuSOLVER on the same inputs (the new
#   defaults were never anchored); (2) GRID_FROM_ROWS: grids from two cubes (explicit
#   --qr-panel-grid 128) against the default (from 512 rows) and none, on the batched shapes
#   whose panels are under 512 rows; (3) qr()'s TSQR / geqrf crossover (measured before
#   grid panels); (4) outer blocks (1 × 8192²'s default) on grid panels.
# Then session 39's next-fused.sh (potrf's fused step without its round trip; Cholesky).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
if [ "${1:-tests}" = tests ]; then
  timeout 500 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
  grep -E "^test |test result|panicked" $OUT/x/geqrf-tests.log | cut -c1-300
else
  F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 1x4096x4096|geqrf 1x8192x8192|qr reduced 1x4096x4096|orgqr 1x4096x4096"
  timeout 240 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/x/bench-anchor.log 2>&1
  echo "bench+anchor rc=$?"; tail -14 $OUT/anchor.log
  S="geqrf 40x176x176|geqrf 40x352x352|geqrf 32x512x512|geqrf 1x4096x4096"
  for g in "" "--qr-panel-grid 128" "--qr-panel-grid 0"; do
    timeout 40 /tmp/bench --filter "$S" --samples 7 $g > $OUT/x/small$(echo "$g" | tr -c 'a-z0-9\n' '_').log 2>&1
    echo "small '$g' rc=$?"; grep -E "^geqrf" $OUT/x/small$(echo "$g" | tr -c 'a-z0-9\n' '_').log | cut -c1-90
  done
  # qr()'s TSQR / geqrf crossover (n ≤ 128 takes TSQR): geqrf's tall panels changed.
  timeout 90 /tmp/bench --qr-crossover > $OUT/x/qr-crossover.log 2>&1
  echo "crossover rc=$?"; tail -20 $OUT/x/qr-crossover.log | cut -c1-100
  for o in "" "--qr-outer 0"; do
    timeout 40 /tmp/bench --filter "geqrf 1x8192x8192" --samples 5 $o > $OUT/x/outer$(echo "$o" | tr -c 'a-z0-9\n' '_').log 2>&1
    echo "outer '$o' rc=$?"; grep -E "^geqrf" $OUT/x/outer$(echo "$o" | tr -c 'a-z0-9\n' '_').log | cut -c1-90
  done
fi
tar cJf $OUT/next2.tar.xz -C $OUT/x .
