#!/usr/bin/env bash
# Session 50, call F (two starts failed after call C; the budget left fits one call):
# `step_substitution` on by default (the panel solve with L11's columns pre-divided by their
# pivots: one shuffle and four multiply-adds per column and lane).
# 1. potrf 1024–16384 and the batches 256 × 256², 64 × 1024², 1024 × 64², 4096 × 32²: the
#    default against `--potrf-step-substitution off`, one round.
# 2. ncu: the first 24 launches of potrf 4096.
# 3. The whole Cholesky suite. One test thread: `graph_replay` captures a stream.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384|potrf 256x256|potrf 64x1024|potrf 1024x64|potrf 4096x32"
for v in default off; do
  flags=(); [ $v = off ] && flags=(--potrf-step-substitution off)
  echo "== $v" >> $B
  timeout 60 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
  echo "bench $v rc=$? t=$SECONDS" | tee -a $R
  awk -v v="$v" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
done
# The first launches of one potrf 4096 (the panel solve's time per launch).
timeout 30 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 24 /tmp/bench --filter "potrf 1x4096" --samples 1 > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
# The tests the change touches first.
timeout 490 /tmp/cholesky_tests --test-threads=1 step_substitution fused_syrk_leaf > $OUT/tests-a.log 2>&1
echo "tests a rc=$? t=$SECONDS" | tee -a $R
timeout $((400 - SECONDS)) /tmp/cholesky_tests --test-threads=1 --skip step_substitution --skip fused_syrk_leaf > $OUT/tests-b.log 2>&1
echo "tests b rc=$? t=$SECONDS" | tee -a $R
grep -hE "^test |test result|panicked" $OUT/tests-a.log $OUT/tests-b.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests-a.log $OUT/tests-b.log $OUT/ncu-potrf.log
