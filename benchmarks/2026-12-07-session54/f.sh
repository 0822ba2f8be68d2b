#!/usr/bin/env bash
# Session 54, call F: session 53's one-launch rest (`--potrf-dataflow N`, a cube per tile) and
# this session's right-looking tile tasks on one cube per multiprocessor (`--potrf-tasks on`)
# on the GPU: their test, potrf 1024/2048/4096 with each (alternated with the default, then
# in reverse order while BENCH_UNTIL (s) allows), then as much of the whole Cholesky suite as
# LIMIT (s, default 585) leaves.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
LIMIT=${LIMIT:-585}
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 150 /tmp/cholesky_tests --test-threads=1 dataflow --nocapture > $OUT/dataflow-test.log 2>&1
echo "dataflow test rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|dataflow leaf" $OUT/dataflow-test.log | cut -c1-300 | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096"
run() {
  echo "== $* (t=$SECONDS)" | tee -a $R
  timeout 45 /tmp/bench --filter "$P" --samples 5 "$@" 2>&1 | grep -E "^potrf|rror|anic" | cut -c1-160 | tee -a $R
}
S=(
  "--potrf-dataflow 0"
  "--potrf-dataflow 4096 --potrf-tasks on"
  "--potrf-dataflow 1408"
  "--potrf-dataflow 1408 --potrf-tasks on"
  "--potrf-dataflow 2048"
  "--potrf-dataflow 4096 --potrf-tasks on --potrf-tasks-cubes 66"
)
for s in "${S[@]}"; do run $s; done
for ((q=${#S[@]}-1; q>=0; q--)); do
  [ $SECONDS -lt ${BENCH_UNTIL:-330} ] || break
  run ${S[$q]}
done
echo "== suite (t=$SECONDS)" | tee -a $R
timeout 60 /tmp/cholesky_tests --test-threads=1 graph_replay > $OUT/tests.log 2>&1
echo "graph_replay rc=$? t=$SECONDS" | tee -a $R
timeout $((LIMIT - SECONDS)) /tmp/cholesky_tests --test-threads=4 --skip graph_replay --skip dataflow >> $OUT/tests.log 2>&1
echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests.log
