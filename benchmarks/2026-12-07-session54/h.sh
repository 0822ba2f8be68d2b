#!/usr/bin/env bash
# Session 54, call H (the least that answers whether either one-launch path works and pays,
# for the ~280 s of device time left after the failed starts): the dataflow test (both
# paths), then potrf 1024/2048/4096 by default, with the right-looking tasks on the whole
# matrix, and with the cube-per-tile rest from 1408, then the default again.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096"
run() {
  echo "== $* (t=$SECONDS)" | tee -a $R
  timeout 35 /tmp/bench --filter "$P" --samples 5 "$@" 2>&1 | grep -E "^potrf|rror|anic" | cut -c1-160 | tee -a $R
}
run --potrf-dataflow 0
run --potrf-dataflow 4096 --potrf-tasks on
run --potrf-dataflow 1408
timeout $((${TEST_UNTIL:-230} - SECONDS)) /tmp/cholesky_tests --test-threads=1 dataflow --nocapture > $OUT/dataflow-test.log 2>&1
echo "dataflow test rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|dataflow leaf" $OUT/dataflow-test.log | cut -c1-300 | tee -a $R
[ $SECONDS -lt 220 ] && run --potrf-dataflow 4096 --potrf-tasks on
[ $SECONDS -lt 240 ] && run --potrf-dataflow 0
