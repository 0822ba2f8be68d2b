#!/usr/bin/env bash
# Session 43, call 4 (carry [".gpu/bench.xz", ".gpu/geqrf_tests.xz", ".gpu/cholesky_tests.xz"],
# packed by `TESTS="cholesky geqrf" BENCH=1 bash scripts/gpu-pack.sh` on the tree with the new
# defaults: split products within 2 cubes per multiprocessor in chunks of at least 64 rows;
# potrf's fused steps staged with late C): the new defaults against the earlier split rule
# (`--qr-split-per-sm 0 --qr-split-chunk 256`) where session 43 did not yet time them (orgqr and
# qr reduced: householder_product's Gram products split too), potrf once, then the geqrf and
# Cholesky tests whose large single matrices take the split products / the fused steps.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log; T=$OUT/tests.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
F="geqrf 1x4096x4096|orgqr 1x4096x4096|qr reduced 1x4096x4096|orgqr 8x2048x2048|potrf 1x4096|potrf 1x8192"
run() { # label, filter, flags...
  local l=$1 f=$2; shift 2
  echo "== $l" >> $B
  timeout 60 /tmp/bench --filter "$f" --samples 5 "$@" > $OUT/one.log 2>&1
  local rc=$?
  cat $OUT/one.log >> $B
  echo "$l rc=$rc t=$SECONDS" | tee -a $R
  grep -E "^(geqrf|potrf|qr|orgqr)" $OUT/one.log | cut -c1-60 | tee -a $R
}
run new "$F"
run old-split "geqrf 1x4096x4096|orgqr 1x4096x4096|qr reduced 1x4096x4096|orgqr 8x2048x2048" --qr-split-per-sm 0 --qr-split-chunk 256
rm -f $OUT/one.log
timeout $((200 - SECONDS)) /tmp/geqrf_tests --test-threads=1 lookahead householder_product_and_apply_q tall_and_global_panels > $T 2>&1
echo "geqrf tests rc=$? t=$SECONDS" | tee -a $R
timeout $((285 - SECONDS)) /tmp/cholesky_tests --test-threads=1 large_matrix sizes_straddle_thresholds >> $T 2>&1
echo "cholesky tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $T | cut -c1-200 | tee -a $R
xz -T4 $T
