#!/usr/bin/env bash
# Session 43, call 1 (carry [".gpu/bench.xz"]; .gpu packed by
# `TESTS="cholesky geqrf" BENCH=1 bash scripts/gpu-pack.sh` on the commit named in the log):
# 1. ncu of one geqrf 1 × 4096² call with the default look-ahead and with strips: where the
#    time goes per kernel and cube shape (the first 600 launches ≈ one call);
# 2. geqrf 1 × 4096² and 1 × 8192²: look-ahead default / off / on / strips;
# 3. potrf 1024–8192: fused steps default / never staged / staged with late C / default with late C.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
for v in default strips; do
  flag=(); [ $v = default ] || flag=(--qr-lookahead $v)
  timeout 150 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    -c 600 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 "${flag[@]}" > $OUT/ncu-$v.log 2>&1
  echo "ncu $v rc=$? t=$SECONDS" | tee -a $R
  python3 scripts/ncu_sum.py $OUT/ncu-$v.log --by-grid | tee -a $R
done
xz -T4 $OUT/ncu-default.log $OUT/ncu-strips.log
for la in default off on strips; do
  [ $SECONDS -lt 420 ] || break
  flag=(); [ $la = default ] || flag=(--qr-lookahead $la)
  echo "== geqrf lookahead $la" >> $B
  timeout 50 /tmp/bench --filter "geqrf 1x4096x4096|geqrf 1x8192x8192" --samples 5 "${flag[@]}" >> $B 2>&1
  echo "geqrf lookahead $la rc=$? t=$SECONDS" | tee -a $R
  tail -4 $B | grep -E "^geqrf" | cut -c1-60 | tee -a $R
done
C="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192"
for s in default off late default-late; do
  [ $SECONDS -lt 540 ] || break
  case $s in
    default) flag=() ;;
    off) flag=(--potrf-staged off) ;;
    late) flag=(--potrf-staged on --potrf-c-first off) ;;
    default-late) flag=(--potrf-c-first off) ;;
  esac
  echo "== potrf $s" >> $B
  timeout 45 /tmp/bench --filter "$C" --samples 5 "${flag[@]}" >> $B 2>&1
  echo "potrf $s rc=$? t=$SECONDS" | tee -a $R
  tail -6 $B | grep -E "^potrf" | cut -c1-60 | tee -a $R
done
