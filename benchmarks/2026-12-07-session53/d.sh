#!/usr/bin/env bash
# Session 53, call D (the least that answers whether the dataflow rest pays, for the ~150 s
# of device time left): its test on the GPU, then potrf 1024/2048/4096 without it and with
# the rest from 1408 (22 tile rows: 253 cubes, two per multiprocessor at 128 registers).
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="potrf 1x1024|potrf 1x2048|potrf 1x4096"
for v in 0 1408; do
  echo "== dataflow $v (t=$SECONDS)" | tee -a $R
  timeout 40 /tmp/bench --filter "$P" --samples 5 --potrf-dataflow $v 2>&1 | grep "^potrf" | cut -c1-100 | tee -a $R
done
timeout 90 /tmp/cholesky_tests --test-threads=1 dataflow --nocapture > $OUT/dataflow-test.log 2>&1
echo "dataflow test rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked|dataflow leaf" $OUT/dataflow-test.log | cut -c1-300 | tee -a $R
