#!/usr/bin/env bash
# Session 16, run 5: potrf with the default GEMM's K window at 8 / 16 (default) / 32 / 64 for every
# update and TRSM, against fused / separate launches (fuse sweep).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 300 /tmp/bench --fuse-sweep --samples 5 2>&1 | tee $OUT/fuse-sweep.log
