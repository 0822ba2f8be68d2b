#!/usr/bin/env bash
# Session 41, run b (carry [".gpu"]; .gpu/ as for run a; LA=on|off picks geqrf's look-ahead
# for the anchor):
# (1) the whole geqrf suite (session 40's defaults never ran on an H200; the new `lookahead`
#     test: one-cube and grid panels, batches, outer blocks);
# (2) issue 3's rows and the qr_v2 set against cuSOLVER (PyTorch) on the same inputs.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
LA=${LA:-on}
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/x/device.txt
timeout ${SUITE_S:-330} /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
grep -E "^test |test result|panicked" $OUT/x/geqrf-tests.log | cut -c1-300
xz -T4 $OUT/x/geqrf-tests.log
F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 1x4096x4096|geqrf 1x8192x8192|qr reduced 1x4096x4096|potrf 1x4096"
timeout ${ANCHOR_S:-200} bash scripts/gpu-run.sh bench --filter "$F" --samples 5 --qr-lookahead $LA > $OUT/x/bench-anchor.log 2>&1
echo "bench+anchor rc=$?"; cp $OUT/anchor.log $OUT/ours.json $OUT/merged.json $OUT/x/ 2>/dev/null
grep -E "^(geqrf|qr|potrf)" $OUT/x/bench-anchor.log | cut -c1-100
echo "== anchor"; tail -16 $OUT/x/anchor.log
tar cJf $OUT/run-b.tar.xz -C $OUT/x . && rm -rf $OUT/x
