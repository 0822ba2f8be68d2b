#!/usr/bin/env bash
# Prepared in session 49 for the next session, not run (no device time left). Pack on the tree
# first (`TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`), carry [".gpu"]:
#   bash benchmarks/2026-12-06-session49/next/next.sh sub     # ~300 s
#   bash benchmarks/2026-12-06-session49/next/next.sh rest    # ~250 s
# sub:
# 1. `step_substitution` and `fused_syrk_leaf` (the panel solve by substitution with 4 lanes
#    per row and their shuffles has run only on the CPU runtime, one unit per row).
# 2. potrf 1024 / 2048 / 4096 / 8192 / 16384, alternated, two rounds: the default against
#    `--potrf-step-substitution on`.
# 3. ncu per-launch times of one potrf 4096 with it (its fused steps should lose ~11 µs
#    each at the floor: the inverse's share of the diagonal block, session 49 call C).
# rest: the 8 Cholesky tests that session 49's call C did not reach.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
case "${1:-sub}" in
  sub)
    timeout 200 /tmp/cholesky_tests --test-threads=1 step_substitution fused_syrk_leaf > $OUT/tests.log 2>&1
    echo "tests rc=$? t=$SECONDS" | tee -a $R
    grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
    P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
    for r in 1 2; do
      for v in default sub; do
        flags=(); [ $v = sub ] && flags=(--potrf-step-substitution on)
        echo "== $v-$r" >> $B
        timeout 50 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
        echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
        awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
      done
    done
    timeout 40 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
      -c 140 /tmp/bench --filter "potrf 1x4096" --samples 1 --potrf-step-substitution on > $OUT/ncu-potrf.log 2>&1
    echo "ncu potrf substitution rc=$? t=$SECONDS" | tee -a $R
    python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
    xz -T4 $OUT/ncu-potrf.log $OUT/tests.log ;;
  rest)
    T="gemm_views graph_replay info_reports_first_failure inverse_blocks leaf_kernels nonfinite_and_errors strided_views triangular_solves"
    # One test thread: `graph_replay` captures a stream, so no other test may launch meanwhile.
    timeout 540 /tmp/cholesky_tests --test-threads=1 $T > $OUT/tests.log 2>&1
    echo "rest of the suite rc=$? t=$SECONDS" | tee -a $R
    grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
    xz -T4 $OUT/tests.log ;;
esac
