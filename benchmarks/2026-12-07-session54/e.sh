#!/usr/bin/env bash
# Session 54, call E: session 53's one-launch rest (`--potrf-dataflow N`) on the GPU: its
# test, then potrf 1024/2048/4096 at cutoffs 0 (off) … 4096 (the whole 4096 matrix in one
# launch), then the same again in reverse order; then as much of the whole Cholesky suite as
# LIMIT (s, default 585) leaves.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
LIMIT=${LIMIT:-585}
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 120 /tmp/cholesky_tests --test-threads=1 dataflow --nocapture > $OUT/dataflow-test.log 2>&1
echo "dataflow test rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|dataflow leaf" $OUT/dataflow-test.log | cut -c1-300 | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096"
for v in ${CUTS:-0 1408 2048 2752 4096 4096 2048 1408 0}; do
  echo "== dataflow $v (t=$SECONDS)" | tee -a $R
  timeout 45 /tmp/bench --filter "$P" --samples 5 --potrf-dataflow $v 2>&1 | grep -E "^potrf|rror|anic" | cut -c1-160 | tee -a $R
  [ $SECONDS -lt ${BENCH_UNTIL:-330} ] || break
done
echo "== suite (t=$SECONDS)" | tee -a $R
timeout 60 /tmp/cholesky_tests --test-threads=1 graph_replay > $OUT/tests.log 2>&1
echo "graph_replay rc=$? t=$SECONDS" | tee -a $R
timeout $((LIMIT - SECONDS)) /tmp/cholesky_tests --test-threads=4 --skip graph_replay --skip dataflow >> $OUT/tests.log 2>&1
echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
