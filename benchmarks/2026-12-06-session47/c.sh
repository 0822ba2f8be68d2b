#!/usr/bin/env bash
# Session 47, call C (carry [".gpu"]: bench.xz and geqrf_tests.xz packed with session 46's
# column-group diff applied on top of the new defaults, `TESTS="geqrf" BENCH=1 bash
# scripts/gpu-pack.sh`):
# 1. geqrf on the shapes where the register product is now the default: its default shape
#    against 8 planes of two column groups (one and two steps ahead), alternated;
# 2. the five geqrf tests call B's limit cut, on the new defaults;
# 3. `product_regs` with the two-group shapes, in the time left.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
G="geqrf 1x4096x4096|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 1x8192x8192"
for v in default wide1 wide2 default2; do
  case $v in
    default|default2) flags=() ;;
    wide1) flags=(--qr-product-shape 8,1,16,2) ;;
    wide2) flags=(--qr-product-shape 8,2,16,2) ;;
  esac
  echo "== $v" >> $B
  timeout 45 /tmp/bench --filter "$G" --samples 5 "${flags[@]}" >> $B 2>&1
  echo "bench $v rc=$? t=$SECONDS" | tee -a $R
  awk -v v="$v" '/^== /{cur=$2} cur==v && /^geqrf/' $B | cut -c1-60 | tee -a $R
done
left=$((320 - SECONDS))
timeout $left /tmp/geqrf_tests --test-threads=1 register_panels shapes_straddle_panels \
  strided_inputs tall_and_global_panels tsqr_panels_reconstruct > $OUT/tests.log 2>&1
echo "geqrf tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-160 | tee -a $R
left=$((385 - SECONDS))
timeout $left /tmp/geqrf_tests --test-threads=1 product_regs > $OUT/tests2.log 2>&1
echo "product_regs rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|‖" $OUT/tests2.log | cut -c1-200 | tee -a $R
xz -9 $OUT/tests.log $OUT/tests2.log
