#!/usr/bin/env bash
# The test suite (what CI runs): every crate on the CPU runtime, then the kernel suites again on
# wgpu (on a machine without a GPU: Mesa's lavapipe, `apt-get install mesa-vulkan-drivers
# libvulkan1`). Set SKIP_WGPU=1 to run the CPU runtime only.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/offline-llvm.sh
cargo test --workspace
if [ "${SKIP_WGPU:-0}" != 1 ]; then
  cargo test -p qr-kernels --no-default-features --features wgpu --target-dir target-wgpu --test tsqr --test geqrf
  cargo test -p cholesky-kernels --no-default-features --features wgpu --target-dir target-wgpu --test cholesky
fi
