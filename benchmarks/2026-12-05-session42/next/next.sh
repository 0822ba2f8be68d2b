#!/usr/bin/env bash
# For the next device session (prepared in session 42: its last kernel changes are the strip
# update (7838051) and `fused_c_first` (the commit that adds it); its defaults are
# 33c8e6c's). Pack here first:
#   TESTS="cholesky geqrf" BENCH=1 bash scripts/gpu-pack.sh      # ~5 min; 55 MiB in .gpu/
# (or, if no crate has changed since, copy session 42's prebuilt pack: cp .gpu-next/s42/* .gpu/;
# .gpu-next/s42/COMMIT says which tree it is)
# then on the GPU (device tool), five calls, each carrying only what it runs:
#   a: carry [".gpu/cholesky_tests.xz"]:
#      bash benchmarks/2026-12-05-session42/next/next.sh a   # the whole Cholesky suite, ~6–9 min
#   b: carry [".gpu/bench.xz", ".gpu/geqrf_tests.xz"]:
#      bash benchmarks/2026-12-05-session42/next/next.sh b   # ~5 min
#   c: carry [".gpu/bench.xz"]:  ... next.sh c   # ncu of geqrf 1 × 4096², ~3 min
#   d: carry [".gpu/bench.xz"]:  ... next.sh d   # potrf's fused-step variants, ~4 min
#   e: carry [".gpu/bench.xz", ".gpu/torch_anchor.py"]:  ... next.sh e   # cuSOLVER anchor, ~4 min
# a: the whole Cholesky suite on the final tree (session 42 ran 16 of 18 on an H100, before
#    `fused_c_first`; `gemm_views` and `triangular_solves` never ran on a GPU since the
#    staged fused step came in).
# e: the cuSOLVER anchor for issue 3's and 4's rows on the new defaults.
# d: potrf with the staged default against `--potrf-staged off` on this card (session 42
#    measured it on an H100 only), 1024 to 16384, and staged with C after the product
#    (`--potrf-c-first off`, new in session 42, unmeasured).
# b: the whole geqrf suite on the final tree (session 42 ran it on the H200 on 37d4be2's
#    kernels; since then the look-ahead default, the look-ahead kernel's GEMM call and its
#    strip branch changed), then geqrf 1 × 4096² and 1 × 8192² with the look-ahead default against off,
#    on and strips (`QrParams::lookahead_strips`, new in session 42, only tested on lavapipe:
#    the `lookahead` test in this suite runs it on the GPU first).
# Only a few files come back (the device tool caps their count): logs go to $OUT/*.log.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log; T=$OUT/tests.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
if [ "${1:-a}" = a ]; then
  # One test thread: `graph_replay` captures a stream, so no other test may launch meanwhile.
  timeout 560 /tmp/cholesky_tests --test-threads=1 > $T 2>&1
  echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
  grep -E "^test |test result|panicked" $T | cut -c1-200 | tee -a $R
elif [ "$1" = e ]; then
  F="potrf 1x4096|potrf 1x16384|geqrf 1x4096x4096|geqrf 32x512x512|geqrf 1x8192x8192|qr reduced 1x4096x4096|geqrf 8x2048x2048|geqrf 2x4096x4096"
  timeout 300 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/anchor-run.log 2>&1
  echo "bench+anchor rc=$? t=$SECONDS" | tee -a $R; tail -12 $OUT/anchor.log | tee -a $R
  touch $T
elif [ "$1" = d ]; then
  # potrf's fused steps: default (staged up to 2048 rows, C loaded early), never staged
  # (off), staged everywhere with C loaded after the product (late: 128 registers at 4032
  # rows locally, against 178 staged with early C and 128 unstaged, so two cubes per
  # multiprocessor may stay), and the default's staging with late C.
  C="potrf 1x4096|potrf 1x1024|potrf 1x2048|potrf 1x8192|potrf 1x16384"
  for s in default off late default-late default off late; do
    [ $SECONDS -lt 520 ] || break
    case $s in
      default) flag=() ;;
      off) flag=(--potrf-staged off) ;;
      late) flag=(--potrf-staged on --potrf-c-first off) ;;
      default-late) flag=(--potrf-c-first off) ;;
    esac
    echo "== potrf $s" >> $B
    timeout 60 /tmp/bench --filter "$C" --samples 5 "${flag[@]}" >> $B 2>&1
    echo "potrf $s rc=$? t=$SECONDS" | tee -a $R
    tail -6 $B | grep -E "^potrf" | cut -c1-60 | tee -a $R
  done
  touch $T
elif [ "$1" = c ]; then
  # Where geqrf 1 × 4096²'s time goes with look-ahead (the default): per kernel and cube
  # shape, the first 600 launches (about one call: 128 steps of a product and a look-ahead
  # launch, plus the tail's one-cube panels and updates). Decides whether the product
  # W = Vᵀ·C is worth taking off the chain (issue 3's lead).
  timeout 300 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    -c 600 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 > $OUT/ncu-4096.log 2>&1
  echo "ncu rc=$? t=$SECONDS" | tee -a $R
  python3 scripts/ncu_sum.py $OUT/ncu-4096.log --by-grid | tee -a $R
  xz -T4 $OUT/ncu-4096.log
  # The same with the strip update (`--qr-lookahead strips`).
  timeout 200 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    -c 600 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 --qr-lookahead strips \
    > $OUT/ncu-4096-strips.log 2>&1
  echo "ncu strips rc=$? t=$SECONDS" | tee -a $R
  python3 scripts/ncu_sum.py $OUT/ncu-4096-strips.log --by-grid | tee -a $R
  xz -T4 $OUT/ncu-4096-strips.log
  touch $T
else
  timeout 330 /tmp/geqrf_tests --test-threads=1 > $T 2>&1
  echo "geqrf suite rc=$? t=$SECONDS" | tee -a $R
  grep -E "^test |test result|panicked" $T | cut -c1-200 | tee -a $R
  # on: also the one-cube panels of the last 512 rows (and any batch), which Auto leaves out;
  # strips: as on, the rest updated in column strips that form their own W (the product
  # launch before each step covers only the next panel's columns; unmeasured so far).
  for la in default off on strips; do
    [ $SECONDS -lt 540 ] || break
    flag=(); [ $la = default ] || flag=(--qr-lookahead $la)
    echo "== geqrf lookahead $la" >> $B
    timeout 50 /tmp/bench --filter "geqrf 1x4096x4096|geqrf 1x8192x8192" --samples 5 "${flag[@]}" >> $B 2>&1
    echo "geqrf lookahead $la rc=$? t=$SECONDS" | tee -a $R
    tail -4 $B | grep -E "^geqrf" | cut -c1-60 | tee -a $R
  done
fi
xz -T4 $T
