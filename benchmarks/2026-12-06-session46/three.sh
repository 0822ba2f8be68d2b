#!/usr/bin/env bash
# Session 46, call 3, never run (carry [".gpu"]: bench.xz and geqrf_tests.xz packed on the
# final tree, `TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh`): `product_regs` again (the fix
# of a batch's steps past its K slice); the batched qr_v2 shapes with the register product
# kernel against the default, one round; the tall-panel grid rule against the default, two
# rounds. About 250 s.
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
# Grid panels of 4097 rows or more with about 256 rows per cube (`panel_grid_tall`, added
# after call two: pack again first), against the default, two rounds.
T="geqrf 1x8192x8192|geqrf 1x4096x4096|qr reduced 1x8192x8192"
for r in 1 2; do
  for v in default tall; do
    flags=(); [ $v = tall ] && flags=(--qr-panel-grid-tall 256,4097)
    echo "== $v-t$r" >> $B
    timeout 60 /tmp/bench --filter "$T" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v tall round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-t$r" '/^== /{cur=$2} cur==v && /^(geqrf|qr)/' $B | cut -c1-60 | tee -a $R
  done
done
