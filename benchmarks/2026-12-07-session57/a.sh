#!/usr/bin/env bash
# Session 57, call A (prepared, not run: the device starts failed): the whole geqrf suite on a pack with pairs on by default (the tests pairs
# touch first). Pack: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
FIRST="panel_pairs register_panels grid_panels lookahead extreme_scaling large_batch"
timeout 260 /tmp/geqrf_tests --test-threads=1 $FIRST > $OUT/tests.log 2>&1
echo "tests (pairs) rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
SKIP=""; for t in $FIRST; do SKIP="$SKIP --skip $t"; done
timeout $((570 - SECONDS)) /tmp/geqrf_tests --test-threads=1 $SKIP > $OUT/tests-rest.log 2>&1
echo "tests (rest) rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-rest.log | cut -c1-300 | tee -a $R
