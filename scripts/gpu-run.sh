#!/usr/bin/env bash
# Runs on the GPU machine (device tool, `carry: [".gpu"]`): unpack, CUDA test suite, the main
# example, the benchmark and the cuSOLVER anchor on the same inputs. Logs under $OUT.
# Usage: bash scripts/gpu-run.sh [tests|example|burn|optim|bench|sweep|gemm-sweep|fuse-sweep|qr-sweep|qr-crossover|all] [bench args...]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
what=${1:-all}; shift || true
for b in tsqr_tests geqrf_tests cholesky_tests ops_tests grad_tests optim_tests tsqr burn_ops train_mlp bench; do
  [ -f ".gpu/$b.xz" ] && xz -dc ".gpu/$b.xz" > "/tmp/$b" && chmod +x "/tmp/$b"
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
rc=0
if [ "$what" = all ] || [ "$what" = tests ]; then
  echo "== CUDA test suite"
  for t in tsqr_tests geqrf_tests cholesky_tests ops_tests grad_tests optim_tests; do
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
if [ "$what" = optim ]; then
  # train_mlp with a learning-rate sweep (×0.3, ×1, ×3 of each optimizer's default; TRAIN_ARGS
  # passes more), then one optimizer step on the big weights (bench args: "$@").
  for s in ${LR_SCALES:-0.3 1 3}; do
    echo "== train_mlp, lr x$s"
    /tmp/train_mlp --out "$OUT/train-x$s" --lr-scale "$s" ${TRAIN_ARGS:-} 2>"$OUT/train-x$s.err" | tee "$OUT/train-x$s.log"; rc=$((rc | PIPESTATUS[0]))
  done
  echo "== optimizer step: AdamW, Muon, SOAP, Dion"
  /tmp/bench --optim "$@" 2>&1 | tee "$OUT/optim-bench.log"; rc=$((rc | PIPESTATUS[0]))
  echo "== the same steps with burn-linalg's qr (one run each; cut at ${LINALG_S:-240} s)"
  timeout "${LINALG_S:-240}" /tmp/bench --optim --optim-linalg "$@" 2>&1 | tee "$OUT/optim-bench-linalg.log"
fi
if [ "$what" = qr-sweep ]; then
  echo "== geqrf: panel width x row groups"
  /tmp/bench --qr-sweep "$@" 2>&1 | tee "$OUT/qr-sweep.log"; rc=$((rc | PIPESTATUS[0]))
fi
if [ "$what" = qr-crossover ]; then
  echo "== qr: TSQR against blocked geqrf on tall shapes"
  /tmp/bench --qr-crossover "$@" 2>&1 | tee "$OUT/qr-crossover.log"; rc=$((rc | PIPESTATUS[0]))
fi
if [ "$what" = fuse-sweep ]; then
  echo "== potrf: SYRK fused with the next diagonal block, or not"
  /tmp/bench --fuse-sweep "$@" 2>&1 | tee "$OUT/fuse-sweep.log"; rc=$((rc | PIPESTATUS[0]))
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
