#!/usr/bin/env bash
# Session 51, call A: the diagonal blocks without inverses factored by plane 0 alone in two
# halves (`CholeskyParams::leaf_plane`, default on; `potrf/blocked.rs` plane_factor).
# 1. leaf_kernels, step_substitution and fused_syrk_leaf on the GPU (the new path).
# 2. potrf 1024–16384, default against `--potrf-leaf-plane off`, alternated, two rounds.
# 3. ncu per-launch times of one potrf 4096 on the default.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 200 /tmp/cholesky_tests --test-threads=1 leaf_kernels step_substitution fused_syrk_leaf > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
for r in 1 2; do
  for v in default off; do
    flags=(); [ $v = off ] && flags=(--potrf-leaf-plane off)
    echo "== $v-$r" >> $B
    timeout 50 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
timeout 40 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 140 /tmp/bench --filter "potrf 1x4096" --samples 1 > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
awk '/^  [a-z_]+_kernel/{n=$1; g=$2} /gpu__time_duration/{print substr(n,1,10), g, $3}' $OUT/ncu-potrf.log | awk 'NR%8==3' | head -20 | tee -a $R
xz -T4 $OUT/ncu-potrf.log $OUT/tests.log
