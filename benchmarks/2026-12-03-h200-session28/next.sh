#!/usr/bin/env bash
# For the next session (written after the device budget was spent, not run): chain blocks of
# two leaves in the one-launch substitution (`CholeskyParams::trsv_sub`,
# unmeasured-trsv-sub.diff). Here first:
#   git apply benchmarks/2026-12-04-h200-session29/run1/rejected-trsv-sub.diff   (moved there)
#   TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh
# then on the H200 (device tool, carry [".gpu"]): `bash benchmarks/2026-12-03-h200-session28/next.sh`.
# It runs `triangular_solves` (the new kernel at leaves of 8, blocks of 16 and 32 rows; at
# leaves of 64 the bench runs blocks of 128), then `bench --trsv-sweep`, whose last column
# is the new kernel. Adopt it only if it beats the "ahead" column (the default).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 120 /tmp/cholesky_tests --test-threads=1 triangular_solves > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|panicked" $OUT/tests.log | head -6
timeout 150 /tmp/bench --trsv-sweep --samples 7 > $OUT/trsv-sweep.log 2>&1; echo "trsv-sweep rc=$?"
grep -v "^\s*$" $OUT/trsv-sweep.log | head -12 | cut -c1-120
# Whole inverted blocks against block substitution for 4–16 right-hand sides (the ratio
# columns now run without substitution; the last column is the default, the chain): would a
# lower `trsv_max_k` pay? At 4096² with 32 rhs whole blocks took 1.05 ms (cholesky_solve),
# the chain 1.40 with 16.
timeout 150 /tmp/bench --inv-rhs-sweep --samples 5 --inv-rhs-shapes 1x4096x4,1x4096x8,1x4096x16,1x16384x16,8x2048x16 > $OUT/inv-rhs-small-k.log 2>&1; echo "inv-rhs small k rc=$?"
grep -v "^\s*$" $OUT/inv-rhs-small-k.log | tail -10 | cut -c1-140
