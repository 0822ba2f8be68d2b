#!/usr/bin/env bash
# Session 32 run 2: CubeCL's CUDA C++ backend (NVRTC; feature `cuda-cpp`) against its default
# LLVM backend, same source (1864386), same inputs, alternated. .gpu/bench = LLVM,
# .gpu/bench_cpp = C++ (`cargo build --release --no-default-features --features cuda-cpp
# --example bench`). Bench rows only (their accuracy columns check each result).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for b in bench bench_cpp; do xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
W="potrf|geqrf 1x4096|geqrf 32x512|geqrf 640x512|geqrf 20x32|geqrf 60x1024|orgqr 1x4096|tsqr"
N="potrf 1x1024|potrf 1x4096|potrf 1024x64|potrf 64x1024|geqrf 1x4096|geqrf 32x512"
run() { local t=$1 f=$2; shift 2; echo "== $*"; timeout $t "$@" --filter "$f" --samples 5 2>&1 | grep -E "^(potrf|geqrf|orgqr|tsqr|qr|case|thread|Error|error)" ; echo "rc=${PIPESTATUS[0]}"; }
{
run 150 "$W" /tmp/bench
run 200 "$W" /tmp/bench_cpp
run 60 "$N" /tmp/bench
run 80 "$N" /tmp/bench_cpp
} 2>&1 | tee $OUT/compare.log
