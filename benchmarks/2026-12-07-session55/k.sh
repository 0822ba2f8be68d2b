#!/usr/bin/env bash
# Session 55, call K: call J's deferred steps with the K = 2·nb updates kept in the fused
# kernel (J sent them to the large-update GEMM and a separate leaf): potrf 4096 and 8192
# against the default, two rounds, ncu of one potrf 4096, then `fused_syrk_leaf`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
P="potrf 1x4096|potrf 1x8192"
run() {
  echo "== $* (t=$SECONDS)" | tee -a $R
  timeout 40 /tmp/bench --filter "$P" --samples 5 "$@" 2>&1 | grep -E "^potrf|rror|anic" | cut -c1-160 | tee -a $R
}
run --potrf-defer on; run --potrf-defer off; run --potrf-defer on; run --potrf-defer off
timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum /tmp/bench --potrf-probe 1x4096 --calls 1 --potrf-defer on > $OUT/ncu-4096.log 2>&1
python3 scripts/ncu_sum.py $OUT/ncu-4096.log --by-grid 2>&1 | tee -a $R
grep -E "^  [a-z_]+.*\(|gpu__time_duration" $OUT/ncu-4096.log | paste - - | awk '{print $1, $2, $(NF)}' > $OUT/ncu-4096-seq.txt
xz -T4 $OUT/ncu-4096.log
timeout $((${LIMIT:-170} - SECONDS)) /tmp/cholesky_tests fused_syrk_leaf > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
