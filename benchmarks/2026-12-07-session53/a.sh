#!/usr/bin/env bash
# Session 53, call A: the new one-launch rest of a right-looking region
# (`CholeskyParams::dataflow_below`, `potrf/dataflow.rs`) on the GPU: its test, then potrf
# with it at several cutoffs against without it (0), alternated, two rounds.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 150 /tmp/cholesky_tests --test-threads=1 dataflow --nocapture > $OUT/dataflow-test.log 2>&1
echo "dataflow test rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|dataflow leaf" $OUT/dataflow-test.log | cut -c1-300 | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096"
for r in 1 2; do
  [ $SECONDS -lt ${ROUND2_BEFORE:-200} ] || break
  for v in 0 1024 1408 2048; do
    echo "== dataflow $v round $r (t=$SECONDS)" | tee -a $R
    timeout 45 /tmp/bench --filter "$P" --samples 5 --potrf-dataflow $v 2>&1 | grep "^potrf" | cut -c1-100 | tee -a $R
  done
done
