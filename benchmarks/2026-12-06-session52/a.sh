#!/usr/bin/env bash
# Session 52, call A: two opt-in fused-step variants of potrf against the default — the
# triangular grid (`--potrf-tri-grid on`: only the update's tiles on and below the diagonal
# get a cube) and the tensor-core update cubes' rows of A staged in shared memory
# (`--potrf-mma-staged on`: one round trip per 64 of K) — alternated, two rounds; then ncu
# per launch of potrf 4096 with both; then `fused_syrk_leaf` (which runs both variants).
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192"
for r in 1 2; do
  for v in default tri staged both; do
    case $v in
      default) flags=() ;;
      tri) flags=(--potrf-tri-grid on) ;;
      staged) flags=(--potrf-mma-staged on) ;;
      both) flags=(--potrf-tri-grid on --potrf-mma-staged on) ;;
    esac
    echo "== $v-$r" >> $B
    timeout 40 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
for v in default both; do
  case $v in default) flags=() ;; both) flags=(--potrf-tri-grid on --potrf-mma-staged on) ;; esac
  timeout 60 ncu --metrics gpu__time_duration.sum -c 140 /tmp/bench --filter "potrf 1x4096" \
    --samples 1 "${flags[@]}" > $OUT/ncu-$v.log 2>&1
  echo "ncu $v rc=$? t=$SECONDS" | tee -a $R
  awk '/^  [a-z_]+_kernel/{n=$1; g=$2} /gpu__time_duration/{print n, g, $3}' $OUT/ncu-$v.log \
    | awk '/syrk_leaf/{k++; s+=$3; if (k<=8 || k%8==0) printf "%s %s | ", $2, $3} END{print "\nfused sum", s}' | tee -a $R
  xz -T4 $OUT/ncu-$v.log
done
timeout $((590 - SECONDS)) /tmp/cholesky_tests --test-threads=1 fused_syrk_leaf > $OUT/tests.log 2>&1
echo "fused_syrk_leaf rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
