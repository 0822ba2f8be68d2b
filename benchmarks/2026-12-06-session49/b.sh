#!/usr/bin/env bash
# Session 49, call B (pack the tree first: `TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`,
# carry [".gpu"], ask for an H200): `bash benchmarks/2026-12-06-session49/b.sh`
# 1. The whole Cholesky suite on session 48's final kernels (owed since session 48).
# 2. ncu: the blocked diagonal-block kernel alone, factor only (potrf 1 × 64 with the tiled
#    leaf), against its factor + inverse (potrf 4096's first block, 28.5 µs in call A).
# 3. If time is left: ncu's stall samples per SASS instruction of the diagonal-block kernel
#    (1024 blocks of 64, factor only: enough cubes for the sampler), as text.
# 4. If time is left: potrf 4096 / 8192 / 16384, the default against `--potrf-fused-mma-rows
#    2048` (the tensor-core update only in steps of at least 2048 update rows), two rounds.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
# One test thread: `graph_replay` captures a stream, so no other test may launch meanwhile.
timeout 450 /tmp/cholesky_tests --test-threads=1 > $OUT/tests.log 2>&1
echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  --kernel-name regex:blocked_leaf -c 3 /tmp/bench --filter "potrf 1x64" --samples 1 \
  --potrf-batched-leaf tiled > $OUT/ncu-leaf64.log 2>&1
echo "ncu factor-only leaf rc=$? t=$SECONDS" | tee -a $R
grep -E "blocked_leaf|gpu__time" $OUT/ncu-leaf64.log | tee -a $R
timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  --kernel-name regex:blocked_leaf -c 2 /tmp/bench --filter "potrf 1x4096" --samples 1 \
  > $OUT/ncu-leaf4096.log 2>&1
echo "ncu first leaf of 4096 rc=$? t=$SECONDS" | tee -a $R
grep -E "blocked_leaf|gpu__time" $OUT/ncu-leaf4096.log | tee -a $R
if [ $SECONDS -lt 460 ]; then
  timeout 90 ncu --clock-control none --section WarpStateStats --section SourceCounters \
    --kernel-name regex:blocked_leaf -c 1 --export $OUT/leaf1024 /tmp/bench \
    --filter "potrf 1024x64" --samples 1 --potrf-batched-leaf tiled > $OUT/ncu-leaf1024.log 2>&1
  echo "ncu source counters rc=$? t=$SECONDS" | tee -a $R
  ncu -i $OUT/leaf1024.ncu-rep --page source --csv --print-source sass > $OUT/leaf-source.csv 2>&1
  echo "source page rc=$? lines=$(wc -l < $OUT/leaf-source.csv)" | tee -a $R
  ncu -i $OUT/leaf1024.ncu-rep --page details > $OUT/leaf-details.txt 2>&1
  xz -T4 $OUT/leaf-source.csv
fi
P="potrf 1x4096|potrf 1x8192|potrf 1x16384"
for r in 1 2; do
  for v in default rows; do
    [ $SECONDS -lt 490 ] || break 2
    case $v in
      default) flags=() ;;
      rows) flags=(--potrf-fused-mma-rows 2048) ;;
    esac
    echo "== $v-$r" >> $B
    timeout 30 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
xz -T4 $OUT/tests.log
