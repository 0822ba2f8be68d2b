#!/usr/bin/env bash
# Session 46, call 2 (carry [".gpu"]: bench.xz and geqrf_tests.xz, packed by
# `TESTS="geqrf cholesky" BENCH=1 bash scripts/gpu-pack.sh` on the tree with
# geqrf/product.rs; cholesky_tests.xz moved out for the carry limit):
# 1. the geqrf test `product_regs` (the register product kernel against the gates and the
#    default path);
# 2. geqrf with Vᵀ·C by the register product kernel (`--qr-product on`: 16 planes one step
#    ahead, K slices where the tiles are few; `on1`: no slices; `on8`: cubes of 8 planes)
#    against the default thin mma GEMM with split-K, alternated, two rounds;
# 3. ncu per-launch times of one geqrf 1 × 4096² call with the product kernel;
# 4. the rest of the geqrf suite, in the time left.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 200 /tmp/geqrf_tests --test-threads=1 product_regs > $OUT/tests.log 2>&1
echo "product_regs rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
F="geqrf 1x4096x4096|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 1x8192x8192"
for r in 1 2; do
  for v in default on on1 on8; do
    [ $r = 2 ] && [ $v != default ] && [ $v != on ] && continue
    case $v in
      default) flags=() ;;
      on) flags=(--qr-product on) ;;
      on1) flags=(--qr-product on --qr-product-slices 1) ;;
      on8) flags=(--qr-product on --qr-product-shape 8,1,16) ;;
    esac
    echo "== $v round $r" >> $B
    timeout 90 /tmp/bench --filter "$F" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
  done
done
for v in default on on1 on8; do
  echo "== $v" | tee -a $R
  awk -v v="$v" '/^== /{cur=$2} cur==v && /^geqrf/' $B | cut -c1-100 | sort | tee -a $R
done
timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 400 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 --qr-product on > $OUT/ncu-times.log 2>&1
echo "ncu times rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-times.log --by-grid | tee -a $R
xz -T4 $OUT/ncu-times.log
left=$((500 - SECONDS))
[ $left -gt 30 ] && timeout $left /tmp/geqrf_tests --test-threads=1 --skip product_regs >> $OUT/tests.log 2>&1
echo "geqrf suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -9 $OUT/tests.log
