#!/usr/bin/env bash
# Session 43, call 3 (carry [".gpu/bench.xz", ".gpu/cholesky_tests.xz"]): geqrf's split
# products (Vᵀ·C of each step, K = the panel's rows) with other chunk counts
# (`--qr-split-per-sm N`: within N cubes per multiprocessor, rounded down;
# `--qr-split-chunk N`: at least N rows per chunk; default: at least 2 cubes per
# multiprocessor rounded up, 256 rows); then the Cholesky tests that never ran on a GPU since
# the staged fused step (gemm_views, triangular_solves) and fused_syrk_leaf (every fused-step
# variant, late C included).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log; T=$OUT/tests.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
G="geqrf 1x4096x4096|geqrf 8x2048x2048|geqrf 2x4096x4096"
run() { # label, filter, flags...
  local l=$1 f=$2; shift 2
  [ $SECONDS -lt 330 ] || return
  echo "== $l" >> $B
  timeout 50 /tmp/bench --filter "$f" --samples 5 "$@" > $OUT/one.log 2>&1
  local rc=$?
  cat $OUT/one.log >> $B
  echo "$l rc=$rc t=$SECONDS" | tee -a $R
  grep -E "^(geqrf|potrf|qr)" $OUT/one.log | cut -c1-60 | tee -a $R
}
run default "$G"
run per2 "$G" --qr-split-per-sm 2
run per2-c128 "$G" --qr-split-per-sm 2 --qr-split-chunk 128
run per2-c64 "$G" --qr-split-per-sm 2 --qr-split-chunk 64
run c128 "$G" --qr-split-chunk 128
run per3-c128 "$G" --qr-split-per-sm 3 --qr-split-chunk 128
run per4-c128 "$G" --qr-split-per-sm 4 --qr-split-chunk 128
rm -f $OUT/one.log
timeout $((570 - SECONDS)) /tmp/cholesky_tests --test-threads=1 gemm_views triangular_solves fused_syrk_leaf > $T 2>&1
echo "cholesky tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $T | cut -c1-200 | tee -a $R
xz -T4 $T
