#!/usr/bin/env bash
# Session 52, call D: three opt-in potrf variants against the default, alternated, two rounds
# — `--potrf-leaf-subst on` (the diagonal blocks' sub-blocks factored without inverses, their
# panels solved by substitution), `--potrf-tri-grid on` (the fused steps' grid lists only the
# update's tiles on and below the diagonal), `--potrf-mma-staged on` (the tensor-core update
# cubes stage A's rows in shared memory, one round trip per 64 of K) and all three; then the
# tests that run them (leaf_kernels, fused_syrk_leaf, step_substitution); then the rest of the
# Cholesky suite with the time left (graph_replay alone first).
# (`--potrf-mma-staged` was removed after this call: rejected-mma-staged.diff restores it.)
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x1024|potrf 1x4096|potrf 1x8192"
for r in 1 2; do
  for v in default subst tri staged all; do
    case $v in
      default) flags=() ;;
      subst) flags=(--potrf-leaf-subst on) ;;
      tri) flags=(--potrf-tri-grid on) ;;
      staged) flags=(--potrf-mma-staged on) ;;
      all) flags=(--potrf-leaf-subst on --potrf-tri-grid on --potrf-mma-staged on) ;;
    esac
    echo "== $v-$r" >> $B
    timeout 30 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
timeout 230 /tmp/cholesky_tests --test-threads=3 leaf_kernels fused_syrk_leaf step_substitution > $OUT/tests.log 2>&1
echo "new variants' tests rc=$? t=$SECONDS" | tee -a $R
if [ $SECONDS -lt 480 ]; then
  timeout 40 /tmp/cholesky_tests --test-threads=1 graph_replay >> $OUT/tests.log 2>&1
  echo "graph_replay rc=$? t=$SECONDS" | tee -a $R
  timeout $((585 - SECONDS)) /tmp/cholesky_tests --test-threads=4 --skip graph_replay \
    --skip leaf_kernels --skip fused_syrk_leaf --skip step_substitution >> $OUT/tests.log 2>&1
  echo "rest of the suite rc=$? t=$SECONDS" | tee -a $R
fi
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
