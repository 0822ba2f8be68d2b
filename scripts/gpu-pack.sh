#!/usr/bin/env bash
# Build the CUDA binaries here (no GPU needed): the test suites and the bench (WITH_EXAMPLE=1
# adds the tsqr example, WITH_BURN=1 the burn_ops example, WITH_TRAIN=1 the train_mlp example;
# TESTS may name ops, grad and optim, the burn-ext suites); strip and xz them into .gpu/ (git-ignored) for the device tool: run
# there with `carry: [".gpu"]` and `bash scripts/gpu-run.sh`. The carry limit is 64 MiB and
# each binary is ~16.8 MB compressed, so three suites and the bench do not fit together:
# TESTS picks the suites (default: all three) and BENCH=0 leaves the bench out (default: in,
# with the geqrf and Cholesky suites only when TESTS is unset).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/offline-llvm.sh
T=target-cuda
FEAT=(--release --no-default-features --features cuda --target-dir "$T")
cargo build "${FEAT[@]}" --example tsqr --example bench --example burn_ops --example train_mlp
# The kernel crates' test binaries (built with --workspace: the same feature unification as
# the examples, so the dependencies are not rebuilt).
tests_json=$(cargo test "${FEAT[@]}" --workspace --no-run --message-format=json 2>/dev/null)
test_bin() {
  python3 -c 'import sys,json
for l in sys.stdin:
    try: m=json.loads(l)
    except Exception: continue
    if m.get("reason")=="compiler-artifact" and m.get("profile",{}).get("test") and m.get("executable"): print(m["executable"])' <<<"$tests_json" | grep "/$1-" | tail -n1
}
mkdir -p .gpu
pack() { strip -o ".gpu/$2" "$1" && xz -T2 -9 -f ".gpu/$2" && ls -la ".gpu/$2.xz"; }
rm -f .gpu/*_tests.xz
BENCH=${BENCH:-1}
if [ -z "${TESTS:-}" ]; then
  if [ "$BENCH" = 1 ]; then TESTS="geqrf cholesky"; else TESTS="tsqr geqrf cholesky"; fi
fi
for t in $TESTS; do pack "$(test_bin "$t")" "${t}_tests"; done
if [ "${WITH_EXAMPLE:-0}" = 1 ]; then pack "$T/release/examples/tsqr" tsqr; else rm -f .gpu/tsqr.xz; fi
if [ "${WITH_BURN:-0}" = 1 ]; then pack "$T/release/examples/burn_ops" burn_ops; else rm -f .gpu/burn_ops.xz; fi
if [ "${WITH_TRAIN:-0}" = 1 ]; then pack "$T/release/examples/train_mlp" train_mlp; else rm -f .gpu/train_mlp.xz; fi
if [ "$BENCH" = 1 ]; then pack "$T/release/examples/bench" bench; else rm -f .gpu/bench.xz; fi
cp scripts/torch_anchor.py .gpu/
du -sh .gpu
