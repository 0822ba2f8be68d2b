#!/usr/bin/env bash
# Prepared in session 38, not run: the mma GEMM with A's tiles in pairs (`pair-rows.diff`,
# `MmaTiles::pair_rows`): each of the three TF32 products issued for two A tiles and every B
# tile before the next, so 8 independent accumulators separate dependent `mma.sync`s instead
# of 4 (run 4's ncu: fixed-latency waits are 35.5 % of the default's stall samples). ptxas 13
# here: 255 registers with the sums in registers (1159 instructions between barriers against
# 1064), 238 with the sums in shared memory, no spills either way; ptxas reorders the HMMAs
# itself, so only the device can say whether it helps.
# Pack here, then one device call (~6 min), carry [".gpu"]:
#   git apply benchmarks/2026-12-05-h200-session38/next/pair-rows.diff
#   TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh
# Keep it (as MMA_DEFAULT's setting) if both tc-sweep rows beat the default's potrf 16384 and
# 4096³ rates, and gemm_views / gemm_long_k / large_matrix pass.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
timeout 300 /tmp/bench --tc-sweep --samples 5 > $OUT/x/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
timeout 240 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/x/gemm-tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|panicked" $OUT/x/gemm-tests.log | cut -c1-300
tar cJf $OUT/next.tar.xz -C $OUT/x .
cut -c1-200 $OUT/x/tc-sweep.log
