#!/usr/bin/env bash
# Session 40, call c (H100): the geqrf suite on the new defaults (grid panels of 128 rows and
# Vᵀ·C on MMA_THIN, CUDA), then the qr_v2 set and issue 3's other rows against cuSOLVER
# (PyTorch) on the same inputs. Pack: TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 240 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
grep -E "^test |test result|panicked" $OUT/geqrf-tests.log | cut -c1-250
F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 1x4096x4096|geqrf 1x8192x8192|qr reduced 1x4096x4096"
timeout 300 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/bench-anchor.log 2>&1
echo "bench+anchor rc=$?"; tail -16 $OUT/anchor.log
