#!/usr/bin/env bash
# Session 46, call 3 (carry [".gpu"]: bench.xz and geqrf_tests.xz packed after the fix of
# a batch's steps past its K slice): `product_regs` again; then the batched qr_v2 shapes with
# the register product kernel against the default, one round.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 100 /tmp/geqrf_tests --test-threads=1 product_regs > $OUT/tests.log 2>&1
echo "product_regs rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|‖" $OUT/tests.log | cut -c1-200 | tee -a $R
F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 60x1024x1024|geqrf 32x512x512"
for v in default on; do
  flags=(); [ $v = on ] && flags=(--qr-product on)
  echo "== $v" >> $B
  timeout 40 /tmp/bench --filter "$F" --samples 3 "${flags[@]}" >> $B 2>&1
  echo "bench $v rc=$? t=$SECONDS" | tee -a $R
  awk -v v="$v" '/^== /{cur=$2} cur==v && /^geqrf/' $B | cut -c1-60 | tee -a $R
done
