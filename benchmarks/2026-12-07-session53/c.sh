#!/usr/bin/env bash
# Session 53, call C (a.sh and b.sh in one call, for the little device time left after the
# failed starts): the dataflow test, one round of potrf with and without the dataflow rest,
# then as much of the whole Cholesky suite as LIMIT (s, default 400) leaves.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
LIMIT=${LIMIT:-400}
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 120 /tmp/cholesky_tests --test-threads=1 dataflow --nocapture > $OUT/dataflow-test.log 2>&1
echo "dataflow test rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|dataflow leaf" $OUT/dataflow-test.log | cut -c1-300 | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096"
for v in 0 1408 1024 2048; do
  echo "== dataflow $v (t=$SECONDS)" | tee -a $R
  timeout 40 /tmp/bench --filter "$P" --samples 5 --potrf-dataflow $v 2>&1 | grep "^potrf" | cut -c1-100 | tee -a $R
done
echo "== suite (t=$SECONDS)" | tee -a $R
timeout 60 /tmp/cholesky_tests --test-threads=1 graph_replay > $OUT/tests.log 2>&1
echo "graph_replay rc=$? t=$SECONDS" | tee -a $R
timeout $((LIMIT - SECONDS)) /tmp/cholesky_tests --test-threads=4 --skip graph_replay --skip dataflow >> $OUT/tests.log 2>&1
echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
