#!/usr/bin/env bash
# The sm_90 SASS of a kernel, here, without a GPU: `examples/ptx_probe.rs` prints the PTX the
# CUDA runtime hands the driver (PTX=1), and ptxas 13.0 (the H200 driver's CUDA version, from
# PyPI) assembles it. The instruction count matches ncu's on the H200 (session 22: 7120
# against 7112 for the rows kernel at nb = 64; 7288 and 7288 for a variant); the register
# count need not (128 here against ncu's 96 for the same kernel): the driver's JIT allocates
# its own. Prints registers, instructions and the instructions between barriers.
# Usage: bash scripts/local-sass.sh [ptx_probe args: rows [NB] | fused | qpanel|qahead [P NB GY] [grid ROWS] [pairs|segs] [pollall] | vec [set] | recon [NB] [old] | acm bcm sh tf32 stored tiles=WMxWNxTMxTNxKxF] > kernel.sass
set -euo pipefail
cd "$(dirname "$0")/.."
NV=${NV_TOOLS:-/tmp/nvtools}
if [ ! -x "$NV/ptxas13/nvidia/cu13/bin/ptxas" ]; then
  mkdir -p "$NV" && cd "$NV"
  pip download -q --no-deps -d whl "nvidia-cuda-nvcc==13.0.*" nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm >&2
  mkdir -p ptxas13 tools
  (cd ptxas13 && unzip -q -o ../whl/nvidia_cuda_nvcc-13.0*.whl)
  for w in whl/nvidia_cuda_cuobjdump*.whl whl/nvidia_cuda_nvdisasm*.whl; do (cd tools && unzip -q -o "../$w"); done
  cd - > /dev/null
fi
export PATH="$NV/tools/nvidia/cu13/bin:$PATH"
source scripts/offline-llvm.sh
cargo build -q --release --no-default-features --features "cuda cpu" --target-dir target-cuda --example ptx_probe >&2
tmp=$(mktemp -d)
PTX=1 target-cuda/release/examples/ptx_probe "$@" > "$tmp/k.ptx"
"$NV/ptxas13/nvidia/cu13/bin/ptxas" -arch=sm_90a -O3 -v "$tmp/k.ptx" -o "$tmp/k.cubin" 2>&1 | grep -E "registers|spill" >&2
cuobjdump -sass "$tmp/k.cubin" | grep -E '^\s+/\*[0-9a-f]+\*/' | sed 's/^\s*\/\*[0-9a-f]*\*\/\s*//; s/\s*\/\*.*$//' > "$tmp/k.sass"
echo "instructions: $(wc -l < "$tmp/k.sass")" >&2
echo "between barriers: $(awk '/BAR.SYNC/{printf "%d ", c; c=0; next} {c++} END{print c}' "$tmp/k.sass")" >&2
cat "$tmp/k.sass"
rm -rf "$tmp"
