#!/usr/bin/env bash
# Session 50, call F (starts failed after call C, leaving ~390 s): `step_substitution` on by
# default (the panel solve with L11's columns pre-divided by their pivots: one shuffle and
# four multiply-adds per column and lane).
# 1. `step_substitution` and `fused_syrk_leaf`.
# 2. potrf 1 × 1024 / 4096 / 16384 and 256 × 256², 64 × 1024²: the default against
#    `--potrf-step-substitution off`, one round.
# 3. ncu: the first 24 launches of potrf 4096.
# 4. The rest of the Cholesky suite, the tests the default touches most first, until 300 s.
# One test thread: `graph_replay` captures a stream.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
left() { local l=$((300 - SECONDS)); echo $((l > 1 ? l : 1)); }
t() { grep -hE "^test |test result|panicked" "$@" | cut -c1-200 | tee -a $R; }
timeout 90 /tmp/cholesky_tests --test-threads=1 step_substitution fused_syrk_leaf > $OUT/tests-a.log 2>&1
echo "tests a rc=$? t=$SECONDS" | tee -a $R; t $OUT/tests-a.log
P="potrf 1x1024|potrf 1x4096|potrf 1x16384|potrf 256x256|potrf 64x1024"
for v in default off; do
  flags=(); [ $v = off ] && flags=(--potrf-step-substitution off)
  echo "== $v" >> $B
  timeout 40 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
  echo "bench $v rc=$? t=$SECONDS" | tee -a $R
  awk -v v="$v" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
done
timeout 25 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 24 /tmp/bench --filter "potrf 1x4096" --samples 1 > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
K="large_matrix right_looking_cutoff sizes_straddle_thresholds conditioning info_reports_first_failure"
timeout $(left) /tmp/cholesky_tests --test-threads=1 $K > $OUT/tests-b.log 2>&1
echo "tests b rc=$? t=$SECONDS" | tee -a $R; t $OUT/tests-b.log
skip=(--skip step_substitution --skip fused_syrk_leaf); for k in $K; do skip+=(--skip $k); done
timeout $(left) /tmp/cholesky_tests --test-threads=1 "${skip[@]}" > $OUT/tests-c.log 2>&1
echo "tests c rc=$? t=$SECONDS" | tee -a $R; t $OUT/tests-c.log
xz -T4 $OUT/tests-*.log $OUT/ncu-potrf.log
