#!/usr/bin/env bash
# Build the CUDA binaries here (no GPU needed), strip and xz them into .gpu/ (git-ignored) for
# the device tool: run there with `carry: [".gpu"]` and `bash scripts/gpu-run.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/offline-llvm.sh
T=target-cuda
FEAT=(--release --no-default-features --features cuda --target-dir "$T")
cargo build "${FEAT[@]}" --example tsqr --example bench
test_bin=$(cargo test "${FEAT[@]}" -p qr-kernels --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import sys,json
for l in sys.stdin:
    try: m=json.loads(l)
    except Exception: continue
    if m.get("reason")=="compiler-artifact" and m.get("profile",{}).get("test") and m.get("executable"): print(m["executable"])' | grep '/tsqr-' | tail -n1)
mkdir -p .gpu
pack() { strip -o ".gpu/$2" "$1" && xz -T2 -9 -f ".gpu/$2" && ls -la ".gpu/$2.xz"; }
pack "$test_bin" qr_tests
pack "$T/release/examples/tsqr" tsqr
pack "$T/release/examples/bench" bench
cp scripts/torch_anchor.py .gpu/
du -sh .gpu
