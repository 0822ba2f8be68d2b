#!/usr/bin/env bash
# Prepared in session 38, not run: two options of the mma GEMM (`mma-variants.diff`), after
# run 4's ncu of the split-on-read default (fixed-latency waits 35.5 % of the stall samples,
# the math pipe 20 %, issue slots 35 % busy; TF32: short scoreboard 28.7 %).
# - `MmaTiles::pair_rows`: A's tiles in pairs, each of the three products issued for two A
#   tiles and every B tile before the next (8 independent accumulators between dependent
#   `mma.sync`s instead of 4).
# - `MmaTiles::a_stored`: with split on read, A's windows still split when stored (hi and lo
#   quads) and only B split on read. An A fragment is read by 4 planes and a B fragment by 2,
#   so this takes two thirds of the split out of the inner loop for 16 more bytes per A
#   fragment read (3×TF32). With one TF32 product, A's stored hi quad is as many bytes as
#   its raw quad, so there it only saves the split.
# ptxas 13 here (`scripts/local-sass.sh [sh] [tf32] [pair] [ast]`; no arguments: the default):
# registers / instructions between the barriers of the K loop: default 255 (24-byte stack) /
# 1169, pair 255 / 1159, ast 255 / 1025, ast pair 250 / 1043, sh ast 236 / 1074, tf32 ast
# 250 / 765 (tf32 251 / 815). The existing paths (default, sh, stored, sh stored, tf32)
# compile to the same SASS with the diff as without it.
# On a GPU only (the CPU runtime and wgpu refuse the mma kernel).
# Pack here:
#   git apply benchmarks/2026-12-05-h200-session38/next/mma-variants.diff
#   TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh
# Two device calls, carry [".gpu"]: `bash next.sh sweep` (~6 min), then `bash next.sh tests`
# (~4 min). Make the best row the default (MMA_DEFAULT / MMA_TF32) if it beats the default's
# potrf 16384 and 4096³ rates in the sweep and the GEMM tests pass; then run the whole
# Cholesky suite again.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
if [ "${1:-sweep}" = sweep ]; then
  timeout 450 /tmp/bench --tc-sweep --samples 5 > $OUT/x/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
  cut -c1-200 $OUT/x/tc-sweep.log
else
  timeout 500 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/x/gemm-tests.log 2>&1; echo "tests rc=$?"
  grep -E "^test |test result|panicked" $OUT/x/gemm-tests.log | cut -c1-300
fi
