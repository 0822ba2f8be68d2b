#!/usr/bin/env bash
# Prepared in session 46, never run (no device time left). Apply `product-groups.diff` (this
# folder) to the tree first, pack (`TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh`), copy
# this script to benchmarks/2026-12-06-session46/ and run it there (carry [".gpu"]):
# - `product_regs` again: the fix of a batch's steps past its K slice (session 46's call two
#   failed on it), and two more shapes with two column groups (64-column tiles);
# - geqrf 1 × 4096² and 8 × 2048²: the product's default shape against 8 planes of two column
#   groups (one and two steps ahead) and the default thin mma GEMM;
# - the batched qr_v2 shapes with the product against the default, one round.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 120 /tmp/geqrf_tests --test-threads=1 product_regs > $OUT/tests.log 2>&1
echo "product_regs rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|‖" $OUT/tests.log | cut -c1-200 | tee -a $R
G="geqrf 1x4096x4096|geqrf 8x2048x2048"
for v in default on wide1 wide2; do
  case $v in
    default) flags=() ;;
    on) flags=(--qr-product on) ;;
    wide1) flags=(--qr-product on --qr-product-shape 8,1,16,2) ;;
    wide2) flags=(--qr-product on --qr-product-shape 8,2,16,2) ;;
  esac
  echo "== $v" >> $B
  timeout 30 /tmp/bench --filter "$G" --samples 3 "${flags[@]}" >> $B 2>&1
  echo "bench $v rc=$? t=$SECONDS" | tee -a $R
  awk -v v="$v" '/^== /{cur=$2} cur==v && /^geqrf/' $B | cut -c1-60 | tee -a $R
done
F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 60x1024x1024|geqrf 32x512x512"
for v in default on; do
  flags=(); [ $v = on ] && flags=(--qr-product on)
  echo "== $v-b" >> $B
  timeout 40 /tmp/bench --filter "$F" --samples 3 "${flags[@]}" >> $B 2>&1
  echo "bench $v batched rc=$? t=$SECONDS" | tee -a $R
  awk -v v="$v-b" '/^== /{cur=$2} cur==v && /^geqrf/' $B | cut -c1-60 | tee -a $R
done
