#!/usr/bin/env bash
# Session 56, call A: geqrf's register panels with two columns per reduction
# (`--qr-panel-pairs`, QrParams::panel_pairs): the bench rows against the default (pairs
# off), alternated, two rounds; then the register-panel tests on CUDA (`panel_pairs` with
# grids and look-ahead, and the panel tests the refactor touched).
# Pack first: TESTS="geqrf" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
P="geqrf 1x4096x4096|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 1x8192x8192|geqrf 32x512x512"
run() {
  echo "== $* (t=$SECONDS)" | tee -a $R
  timeout 120 /tmp/bench --filter "$P" --samples 5 "$@" 2>&1 | grep -E "^geqrf|rror|anic" | cut -c1-160 | tee -a $R
}
run --qr-panel-pairs on; run --qr-panel-pairs off; run --qr-panel-pairs on; run --qr-panel-pairs off
echo "== tests (t=$SECONDS)" | tee -a $R
timeout $((${LIMIT:-560} - SECONDS)) /tmp/geqrf_tests --test-threads=2 panel_pairs register_panels grid_panels lookahead extreme_scaling > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-300 | tee -a $R
