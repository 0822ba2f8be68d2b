#!/usr/bin/env bash
# Prepared in session 40 (no device lent), not run. Two device calls (~5 min each), carry
# [".gpu"]:
#   TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh        # here (bench.xz + geqrf_tests.xz)
#   bash benchmarks/2026-12-05-session40/next/next.sh a # there: steps 1–3
#   bash benchmarks/2026-12-05-session40/next/next.sh b # there: steps 4–5
# Prebuilt from cf396e9 in .gpu-next/grid/{bench,geqrf_tests}.xz
# (move them into .gpu/ if nothing has changed since). It supersedes session 39's next.sh
# (whose steps are 4 and 5 here); session 39's next-fused.sh (Cholesky) stays separate.
# 1. The geqrf suite: `grid_panels` (new) runs grid panels of 2–9 cubes on every hard class,
#    single matrices and batches, and compares H and τ with one-cube register panels;
#    `extreme_scaling` runs them through the rescue's exchanges; `tsqr_panels_reconstruct`
#    runs both reconstruction top-block kernels; `gemm_split_k` runs the thin mma tiles and
#    geqrf's gates with the mma kernel for every update. Nothing here has run on a GPU:
#    lavapipe never ran two cubes of a launch at once here, and the CPU runtime runs them one
#    after another, so only the refusals were tested there. A wait that gives up fails the op with
#    QrError::Device after 2^22 polls (seconds), so a broken exchange fails tests, not hangs.
# 2. geqrf's grid panels (`--qr-panel-grid ROWS`, off by default) against the default (TSQR
#    panels above 1280 rows): ROWS = 128, 256, 512, alternated twice.
#    Why: session 19's ncu put 118 µs per TSQR panel (5.1 launches of 32 column steps each)
#    plus 24 µs of reconstruction on each of geqrf 1 × 4096²'s 112 tall panels: 61 % of the
#    call. A grid panel is one launch of 32 column steps, each with one exchange through L2
#    (ptxas 13 here, `scripts/local-sass.sh qpanel 4096 32 16 grid 256`: 127 registers, no
#    spill, 5040 instructions). Expected ~1–1.5 µs per column, ~40–50 µs per panel.
#    If a ROWS value wins at 1 × 4096² and 1 × 8192² and the suite passes, make it the
#    default on CUDA for panels of more than one cube (QrLaunch::new), record it.
# 3. ncu of the first grid-panel launches of one geqrf 1 × 4096² (per-panel time).
# 4. The mma kernel for geqrf's GEMMs (`--qr-thin-gemm`, `--qr-big-gemm`): Vᵀ·C on 32 × 128
#    mma tiles (MMA_THIN, 3×TF32: f32 accuracy; `gemm_split_k` in the suite checks it and
#    geqrf's gates with it) and U·W on the default mma tiles; the TF32 variants for timing only.
#    Why: session 19's ncu of geqrf 1 × 4096²: Vᵀ·C 33.4 µs and U·W 26.2 µs per panel on
#    average, 7.3 ms of 21.6 (the mean trailing matrix, 5.6 M elements, is read at ~0.7 TB/s
#    by Vᵀ·C and read and written at ~1.7 TB/s by U·W). At nb = 32, Vᵀ·C does 16 flops per
#    byte of C, above the SIMT units' ~12.5 per byte of bandwidth.
#    If 3×TF32 wins for Vᵀ·C or U·W at 1 × 4096² and 1 × 8192² (and the suite passes), make it
#    geqrf's default on GPUs with the kernel.
# 5. Session 39's reconstruction top block per row against per element (where TSQR panels
#    still run).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
F="geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 2x4096x4096|geqrf 8x2048x2048|geqrf 60x1024x1024|geqrf 32x512x512|qr reduced 1x4096x4096"
if [ "${1:-a}" = a ]; then
  timeout 240 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
  grep -E "^test |test result|panicked" $OUT/x/geqrf-tests.log | cut -c1-300
  for rep in 1 2; do for rows in 0 128 256 512; do
    timeout 60 /tmp/bench --filter "$F" --samples 7 --qr-panel-grid $rows > $OUT/x/qr-grid$rows-$rep.log 2>&1
    echo "grid $rows round $rep rc=$?"; grep -E "^(geqrf|qr)" $OUT/x/qr-grid$rows-$rep.log | cut -c1-90
  done; done
  timeout 100 ncu --metrics gpu__time_duration.sum -k regex:panel_regs -c 8 /tmp/bench \
    --filter "geqrf 1x4096x4096" --samples 1 --qr-panel-grid 256 > $OUT/x/ncu-grid.log 2>&1
  echo "ncu grid rc=$?"; grep -E "panel_regs|gpu__time_duration" $OUT/x/ncu-grid.log | head -16
  tar cJf $OUT/next-a.tar.xz -C $OUT/x .
else
  # On grid panels of 128 rows (call a, H100: the fastest where grids apply).
  FB="geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 2x4096x4096|geqrf 8x2048x2048|qr reduced 1x4096x4096"
  for g in "" "--qr-thin-gemm mma-thin" "--qr-thin-gemm mma-thin --qr-big-gemm mma" \
           "--qr-big-gemm mma" "--qr-thin-gemm mma-thin-tf32 --qr-big-gemm mma-tf32"; do
    tag=$(echo "x$g" | tr -c 'a-z0-9\n' '_')
    timeout 70 /tmp/bench --filter "$FB" --samples 5 --qr-panel-grid 128 $g > $OUT/x/qr-gemm$tag.log 2>&1
    echo "gemm '$g' rc=$?"; grep -E "^(geqrf|qr)" $OUT/x/qr-gemm$tag.log | cut -c1-110
  done
  F2="geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 8x2048x2048|qr reduced 1x4096x4096"
  # (Only with TOP=1: grid panels leave TSQR panels to few shapes.)
  for top in $([ "${TOP:-0}" = 1 ] && echo elements rows); do
    timeout 60 /tmp/bench --filter "$F2" --samples 5 --qr-recon-top $top > $OUT/x/qr-top-$top.log 2>&1
    echo "top $top rc=$?"; grep -E "^(geqrf|qr)" $OUT/x/qr-top-$top.log | cut -c1-90
  done
  tar cJf $OUT/next-b.tar.xz -C $OUT/x .
fi
