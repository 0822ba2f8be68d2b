#!/usr/bin/env bash
# Session 42's last device call (carry [".gpu"]: bench, cholesky_tests, geqrf_tests, packed on
# the tree that adds `CholeskyParams::fused_staged` and geqrf's `LookAhead::Auto`):
# (1) potrf with the fused steps staged by default (up to FUSED_SHARED_FROM rows) against
#     never (`--potrf-staged off`, the committed kernel's way) and always (`on`, session 39's
#     diff as measured in this session's b run), per process, two rounds where time allows;
# (2) the Cholesky suite (the fused kernel changed), two test threads, `graph_replay` alone
#     (it captures a stream: no other test may launch meanwhile);
# (3) geqrf's look-ahead default (`LookAhead::Auto`) against off at 1 × 4096² and 1 × 8192²,
#     whose later panels (4160 rows or fewer: 33 grid cubes or fewer) now take it.
# Few files come back (the device tool caps their count): everything goes to three logs.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log; T=$OUT/tests.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
C="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192"
potrf() {  # $1: default|off|on, $2: round
  local flag=(); [ "$1" = default ] || flag=(--potrf-staged $1)
  echo "== potrf staged $1, round $2" >> $B
  timeout 45 /tmp/bench --filter "$C" --samples 7 "${flag[@]}" >> $B 2>&1
  echo "potrf staged $1 round $2 rc=$? t=$SECONDS" | tee -a $R
  grep -A8 "== potrf staged $1, round $2" $B | grep -E "^potrf" | cut -c1-60 | tee -a $R
}
for s in default off on; do potrf $s 1; done
timeout 250 /tmp/cholesky_tests --test-threads=2 --skip graph_replay > $T 2>&1
echo "cholesky suite (2 threads, graph_replay skipped) rc=$? t=$SECONDS" | tee -a $R
timeout 40 /tmp/cholesky_tests --test-threads=1 graph_replay >> $T 2>&1
echo "cholesky graph_replay rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $T | cut -c1-200 | tee -a $R
G="geqrf 1x4096x4096|geqrf 1x8192x8192"
for la in default off; do
  [ $SECONDS -lt 470 ] || break
  flag=(); [ $la = default ] || flag=(--qr-lookahead off)
  echo "== geqrf lookahead $la" >> $B
  timeout 45 /tmp/bench --filter "$G" --samples 5 "${flag[@]}" >> $B 2>&1
  echo "geqrf lookahead $la rc=$? t=$SECONDS" | tee -a $R
  grep -A6 "== geqrf lookahead $la" $B | grep -E "^geqrf" | cut -c1-60 | tee -a $R
done
for s in default off; do [ $SECONDS -lt 500 ] && potrf $s 2; done
xz -T4 $T
