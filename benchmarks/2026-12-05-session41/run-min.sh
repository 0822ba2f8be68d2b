#!/usr/bin/env bash
# Session 41, the one call if only one machine comes (carry [".gpu"]; .gpu/ from
# `TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh` on 6578426: look-ahead, off by default):
# (1) geqrf with look-ahead off / on / off / on, same binary, on issue 3's main shapes;
# (2) the whole geqrf suite (session 40's defaults never ran on an H200; the new `lookahead`
#     test).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/x/device.txt
F="geqrf 1x4096x4096|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 1x8192x8192"
for rep in 1 2; do for la in off on; do
  f=$OUT/x/la-$la-$rep.log
  timeout 60 /tmp/bench --filter "$F" --samples 5 --qr-lookahead $la > $f 2>&1
  echo "lookahead $la round $rep rc=$?"; grep -E "^(geqrf|qr)" $f | cut -c1-100
done; done
timeout ${SUITE_S:-280} /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
grep -E "^test |test result|panicked" $OUT/x/geqrf-tests.log | cut -c1-300
xz -T4 $OUT/x/geqrf-tests.log
tar cJf $OUT/run-min.tar.xz -C $OUT/x . && rm -rf $OUT/x
