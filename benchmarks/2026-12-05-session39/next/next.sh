#!/usr/bin/env bash
# Prepared in session 39 (no device lent), not run: geqrf's reconstruction top block with a
# unit per row (`QrParams::recon_top_rows`, e2fb3a7; off by default) against the committed
# per-element kernel.
# Why: session 19's ncu put the top block at 19.4 µs per TSQR panel of geqrf 1 × 4096²
# (112 panels: 2.2 ms of 21.6). The per-element kernel runs 1024 units (32 warps) through
# 2w + 2 cube barriers for a w × w block, ~40 instructions per unit per step: about 1300
# warp-instructions per step for the 4 schedulers, so it is issue-bound. The per-row kernel
# is one warp at w ≤ 32: w + 3 barriers, 50–90 instructions per step, and substitutions with
# no barrier (ptxas 13 here, `scripts/local-sass.sh recon 32 [old]`: 96 registers, no spill,
# 5896 instructions; the old one 28 registers, 384 instructions in loops).
# Expected: the top block at ~5 µs (at most −1.6 ms at 4096², −3 ms at 8192²). Panels of 64
# columns (batches of 2+ from 4096 rows) keep the old kernel (MAX_TOP_ROWS_NB = 32).
# Pack here: TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh (bench.xz + geqrf_tests.xz).
# One device call, carry [".gpu"]: `bash next.sh` (~5 min). If `rows` wins on 1 × 4096² and
# 1 × 8192² and loses nowhere, and the suite passes (its tsqr_panels_reconstruct runs both
# kernels and compares them), make `recon_top_rows` default to true and record it.
# Prebuilt in session 39 from b6868ed (6356dd4's kernels compile to the same SASS):
# .gpu-next/recon/{bench,geqrf_tests}.xz; move them into .gpu/ instead of packing, if the
# kernels have not changed since.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
grep -E "^test |test result|panicked" $OUT/x/geqrf-tests.log | cut -c1-300
F="geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 8x2048x2048|geqrf 60x1024x1024|geqrf 40x352x352|qr reduced 1x4096x4096"
for rep in 1 2; do for top in elements rows; do
  timeout 90 /tmp/bench --filter "$F" --samples 7 --qr-recon-top $top > $OUT/x/qr-$top-$rep.log 2>&1
  echo "$top round $rep rc=$?"; grep -E "^(geqrf|qr)" $OUT/x/qr-$top-$rep.log | cut -c1-90
done; done
# Each top-block kernel alone: the first six launches of one geqrf 1 × 4096² call.
for top in elements rows; do
  timeout 120 ncu --metrics gpu__time_duration.sum -k regex:recon_top -c 6 /tmp/bench \
    --filter "geqrf 1x4096x4096" --samples 1 --qr-recon-top $top > $OUT/x/ncu-$top.log 2>&1
  echo "ncu $top rc=$?"; grep -E "recon_top|gpu__time_duration" $OUT/x/ncu-$top.log | head -12
done
# Extra data point, no code change: geqrf's updates of at least 1024 × 1024 on the mma kernel,
# plain TF32 (as Cholesky's TF32 option; the qr_v2 gates at n = 4096 allow
# ‖A − QR‖₁/‖A‖₁ ≤ 9.8e-3) and 3×TF32. Timing only: the bench checks accuracy up to n = 1024,
# where no update is that large; a faster row needs the geqrf suite's gates run with it.
for g in "" "--qr-big-gemm mma-tf32" "--qr-big-gemm mma"; do
  timeout 60 /tmp/bench --filter "geqrf 1x4096x4096|geqrf 2x4096x4096|geqrf 1x8192x8192" --samples 5 $g \
    > $OUT/x/qr-gemm-${g##* }.log 2>&1
  echo "big gemm '${g##* }' rc=$?"; grep -E "^geqrf" $OUT/x/qr-gemm-${g##* }.log | cut -c1-110
done
tar cJf $OUT/next.tar.xz -C $OUT/x .
