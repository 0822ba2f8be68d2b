#!/usr/bin/env bash
# Session 41, run a (.gpu/ from `TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh` on the commit
# that adds look-ahead, `QrParams::lookahead`, off by default):
# (1) geqrf with look-ahead on against off, same binary, alternating, on issue 3's shapes;
# (2) the whole geqrf suite (session 40's defaults were never run on an H200, and the new
#     `lookahead` test: one-cube and grid panels).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/x/device.txt
F="geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 60x1024x1024|geqrf 40x352x352|qr reduced 1x4096x4096"
for rep in 1 2; do for la in off on; do
  f=$OUT/x/la-$la-$rep.log
  timeout 60 /tmp/bench --filter "$F" --samples 5 --qr-lookahead $la > $f 2>&1
  echo "lookahead $la round $rep rc=$?"; grep -E "^(geqrf|qr)" $f | cut -c1-100
done; done
timeout 330 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
grep -E "^test |test result|panicked" $OUT/x/geqrf-tests.log | cut -c1-300
xz -T4 $OUT/x/geqrf-tests.log
tar cJf $OUT/run-a.tar.xz -C $OUT/x . && rm -rf $OUT/x
