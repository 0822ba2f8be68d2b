#!/usr/bin/env bash
# Runs on the GPU machine (device tool, `carry: [".gpu"]`): unpack, CUDA test suite, the main
# example, the benchmark and the cuSOLVER anchor on the same inputs. Logs under $OUT.
# Usage: bash scripts/gpu-run.sh [tests|example|burn|bench|sweep|gemm-sweep|qr-sweep|qr-crossover|all] [bench args...]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
what=${1:-all}; shift || true
for b in tsqr_tests geqrf_tests cholesky_tests ops_tests grad_tests tsqr burn_ops bench; do
  [ -f ".gpu/$b.xz" ] && xz -dc ".gpu/$b.xz" > "/tmp/$b" && chmod +x "/tmp/$b"
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
rc=0
if [ "$what" = all ] || [ "$what" = tests ]; then
  echo "== CUDA test suite"
  for t in tsqr_tests geqrf_tests cholesky_tests ops_tests grad_tests; do
    [ -x "/tmp/$t" ] || continue
    /tmp/$t --test-threads=1 2>&1 | tee "$OUT/$t.log" | grep -E "^test |test result|panicked|runtime cuda" ; rc=$((rc | PIPESTATUS[0]))
  done
fi
if [ "$what" = all ] || [ "$what" = example ]; then
  echo "== example tsqr (default device)"
  /tmp/tsqr 2>&1 | tee "$OUT/example.log"; rc=$((rc | PIPESTATUS[0]))
fi
if [ "$what" = all ] || [ "$what" = bench ]; then
  echo "== bench"
  /tmp/bench --json "$OUT/ours.json" "$@" 2>&1 | tee "$OUT/bench.log"; rc=$((rc | PIPESTATUS[0]))
  echo "== cuSOLVER anchor (PyTorch), same inputs"
  PYTHONUNBUFFERED=1 python3 .gpu/torch_anchor.py "$OUT/ours.json" --out "$OUT/merged.json" 2>&1 | tee "$OUT/anchor.log"; rc=$((rc | PIPESTATUS[0]))
fi
if [ "$what" = all ] || [ "$what" = burn ]; then
  echo "== example burn_ops (default device: CUDA, Fusion on)"
  [ -x /tmp/burn_ops ] && { /tmp/burn_ops 2>&1 | tee "$OUT/burn_ops.log"; rc=$((rc | PIPESTATUS[0])); }
  echo "== qr through the Burn API: burn-ext against burn-linalg"
  [ -x /tmp/bench ] && { /tmp/bench --burn-compare 2>&1 | tee "$OUT/burn-compare.log"; rc=$((rc | PIPESTATUS[0])); }
fi
if [ "$what" = qr-sweep ]; then
  echo "== geqrf: panel width x row groups"
  /tmp/bench --qr-sweep "$@" 2>&1 | tee "$OUT/qr-sweep.log"; rc=$((rc | PIPESTATUS[0]))
fi
if [ "$what" = qr-crossover ]; then
  echo "== qr: TSQR against blocked geqrf on tall shapes"
  /tmp/bench --qr-crossover "$@" 2>&1 | tee "$OUT/qr-crossover.log"; rc=$((rc | PIPESTATUS[0]))
fi
if [ "$what" = gemm-sweep ]; then
  echo "== GEMM tiling sweep"
  /tmp/bench --gemm-sweep "$@" 2>&1 | tee "$OUT/gemm-sweep.log"; rc=$((rc | PIPESTATUS[0]))
fi
if [ "$what" = all ] || [ "$what" = sweep ]; then
  echo "== TSQR knob sweep"
  /tmp/bench --sweep "$@" 2>&1 | tee "$OUT/sweep.log"; rc=$((rc | PIPESTATUS[0]))
fi
echo "exit code $rc"
exit $rc
