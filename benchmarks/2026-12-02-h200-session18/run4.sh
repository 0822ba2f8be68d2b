#!/usr/bin/env bash
# NEVER RAN: six starts found no H200; run5.sh is this script trimmed to the device time left.
# Session 18, run 4: the register panel kernel with one cube barrier per column (pass 1 of
# column j + 1 after a plane barrier in column j's phase) and householder_product / apply_q's
# per-panel T and U in registers too (the Gram matrix by published columns). The geqrf suite;
# the QR rows against cuSOLVER (PyTorch) on the same inputs; orgqr and qr(reduced) without the
# kernel; the QR sweep (panel width, row groups, the kernel off).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf_tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/geqrf_tests.log | head -20
timeout 200 bash scripts/gpu-run.sh bench --filter "geqrf|qr reduced|orgqr" --samples 7 > $OUT/bench-run.log 2>&1; echo "bench rc=$?"
tail -45 $OUT/anchor.log
timeout 60 /tmp/bench --filter "orgqr|qr reduced" --samples 7 --qr-panel-regs off 2>&1 | tee $OUT/qr-off.log | grep -E "orgqr|qr red"
timeout 100 /tmp/bench --qr-sweep --samples 5 2>&1 | tee $OUT/qr-sweep.log
