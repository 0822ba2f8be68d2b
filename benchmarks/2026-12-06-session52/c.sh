#!/usr/bin/env bash
# Session 52, call C (calls A and B in one, after failed starts): potrf with the two opt-in
# fused-step variants against the default — the triangular grid (`--potrf-tri-grid on`) and
# the tensor-core update cubes' rows of A staged in shared memory (`--potrf-mma-staged on`) —
# alternated, two rounds; then the whole Cholesky suite (graph_replay alone, the rest on four
# test threads) with the time left.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x2048|potrf 1x4096|potrf 1x8192"
for r in 1 2; do
  for v in default tri staged both; do
    case $v in
      default) flags=() ;;
      tri) flags=(--potrf-tri-grid on) ;;
      staged) flags=(--potrf-mma-staged on) ;;
      both) flags=(--potrf-tri-grid on --potrf-mma-staged on) ;;
    esac
    echo "== $v-$r" >> $B
    timeout 30 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
timeout 60 /tmp/cholesky_tests --test-threads=1 graph_replay > $OUT/tests.log 2>&1
echo "graph_replay rc=$? t=$SECONDS" | tee -a $R
timeout $((585 - SECONDS)) /tmp/cholesky_tests --test-threads=4 --skip graph_replay >> $OUT/tests.log 2>&1
echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
