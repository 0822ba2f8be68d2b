#!/usr/bin/env bash
# Session 55, call H: the diagonal blocks factored column by column on every unit
# (`--potrf-leaf-cols on`, CholeskyParams::leaf_cols) on the GPU: its tests (`leaf_kernels`,
# `fused_syrk_leaf`), one 64 × 64 block under ncu (blocked leaf with and without it), potrf
# 1024–8192 against the default (alternated, two rounds), and ncu of one potrf 4096 with it.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
NCU="ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum"
for c in on off; do
  timeout 60 $NCU /tmp/bench --potrf-probe 1x64 --calls 8 --potrf-batched-leaf tiled --potrf-leaf-cols $c > $OUT/ncu-64-$c.log 2>&1
  echo "== 1x64 tiled cols $c rc=$?" | tee -a $R
  grep -E "potrf probe" $OUT/ncu-64-$c.log | tee -a $R
  grep -E "^  [a-z_]+.*\(|gpu__time_duration" $OUT/ncu-64-$c.log | paste - - | awk '{print $1, $(NF)}' | tail -4 | tee -a $R
done
P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192"
run() {
  echo "== $* (t=$SECONDS)" | tee -a $R
  timeout 60 /tmp/bench --filter "$P" --samples 5 "$@" 2>&1 | grep -E "^potrf|rror|anic" | cut -c1-160 | tee -a $R
}
run --potrf-leaf-cols on; run --potrf-leaf-cols off; run --potrf-leaf-cols on; run --potrf-leaf-cols off
timeout 120 $NCU /tmp/bench --potrf-probe 1x4096 --calls 2 --potrf-leaf-cols on > $OUT/ncu-4096.log 2>&1
echo "== 1x4096 cols on rc=$?" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-4096.log --by-grid --call copy_kernel 0 2>&1 | tee -a $R
grep -E "^  [a-z_]+.*\(|gpu__time_duration" $OUT/ncu-4096.log | paste - - | awk '{print $1, $(NF)}' > $OUT/ncu-4096-seq.txt
xz -T4 $OUT/ncu-4096.log
echo "== tests (t=$SECONDS)" | tee -a $R
timeout $((${LIMIT:-560} - SECONDS)) /tmp/cholesky_tests --test-threads=2 leaf_kernels fused_syrk_leaf > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
