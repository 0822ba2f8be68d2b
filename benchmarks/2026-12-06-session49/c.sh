#!/usr/bin/env bash
# Session 49, call C (call B's pack and plan, cut to the device time left; carry [".gpu"]):
#   bash benchmarks/2026-12-06-session49/c.sh
# 1. ncu: the blocked diagonal-block kernel alone, factor only (potrf 1 × 64 with the tiled
#    leaf), against its factor + inverse (potrf 4096's first block).
# 2. The Cholesky suite on session 48's final kernels: the tests its changes touch first
#    (`fused_syrk_leaf`, `large_matrix`, `sizes_straddle_thresholds`, `right_looking_cutoff`),
#    then the rest.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
for what in "potrf 1x64|tiled" "potrf 1x4096|default"; do
  f=${what%|*}; leaf=${what#*|}
  flags=(); [ "$leaf" = tiled ] && flags=(--potrf-batched-leaf tiled)
  timeout 40 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    --kernel-name regex:blocked_leaf -c 3 /tmp/bench --filter "$f" --samples 1 "${flags[@]}" \
    > "$OUT/ncu-leaf-${leaf}.log" 2>&1
  echo "ncu $f ($leaf) rc=$? t=$SECONDS" | tee -a $R
  grep -E "gpu__time" "$OUT/ncu-leaf-${leaf}.log" | tee -a $R
done
KEY="fused_syrk_leaf large_matrix sizes_straddle_thresholds right_looking_cutoff"
# One test thread: `graph_replay` captures a stream, so no other test may launch meanwhile.
timeout 300 /tmp/cholesky_tests --test-threads=1 $KEY > $OUT/tests-key.log 2>&1
echo "key tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-key.log | cut -c1-200 | tee -a $R
skip=(); for k in $KEY; do skip+=(--skip "$k"); done
timeout $((530 - SECONDS)) /tmp/cholesky_tests --test-threads=1 "${skip[@]}" > $OUT/tests-rest.log 2>&1
echo "rest of the suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests-rest.log | cut -c1-200 | tee -a $R
xz -T4 $OUT/tests-*.log
