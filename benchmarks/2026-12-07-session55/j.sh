#!/usr/bin/env bash
# Session 55, call J: right-looking steps that defer every other trailing update
# (`--potrf-defer on`, CholeskyParams::step_defer): potrf 1024–16384 against the default
# (alternated, two rounds), ncu of one potrf 4096 with it, then its tests (`fused_syrk_leaf`,
# `step_substitution`) as LIMIT (s, default 420) allows.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
run() {
  echo "== $* (t=$SECONDS)" | tee -a $R
  timeout 60 /tmp/bench --filter "$P" --samples 5 "$@" 2>&1 | grep -E "^potrf|rror|anic" | cut -c1-160 | tee -a $R
}
run --potrf-defer on; run --potrf-defer off; run --potrf-defer on; run --potrf-defer off
NCU="ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum"
timeout 90 $NCU /tmp/bench --potrf-probe 1x4096 --calls 1 --potrf-defer on > $OUT/ncu-4096.log 2>&1
echo "== 1x4096 defer on rc=$? (t=$SECONDS)" | tee -a $R
grep -E "potrf probe" $OUT/ncu-4096.log | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-4096.log --by-grid 2>&1 | tee -a $R
grep -E "^  [a-z_]+.*\(|gpu__time_duration" $OUT/ncu-4096.log | paste - - | awk '{print $1, $2, $(NF)}' > $OUT/ncu-4096-seq.txt
xz -T4 $OUT/ncu-4096.log
echo "== tests (t=$SECONDS)" | tee -a $R
timeout $((${LIMIT:-420} - SECONDS)) /tmp/cholesky_tests --test-threads=2 fused_syrk_leaf step_substitution > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
