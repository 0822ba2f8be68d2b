#!/usr/bin/env bash
# For the next device session (prepared in session 43 on its final tree). Pack here first:
#   TESTS="cholesky geqrf" BENCH=1 bash scripts/gpu-pack.sh      # ~5 min warm; 55 MiB in .gpu/
# then on the GPU (device tool), each call carrying only what it runs:
#   a: carry [".gpu/geqrf_tests.xz"]:    bash benchmarks/2026-12-05-session43/next/next.sh a
#      the whole geqrf suite on session 43's split rule (`lookahead` was cut by a time limit
#      there; the suite took 216 s on the H200 in session 42)
#   b: carry [".gpu/cholesky_tests.xz"]: ... next.sh b   the whole Cholesky suite on the
#      new default (fused steps staged with late C; 5 of 18 tests ran on it or on that variant)
#   c: carry [".gpu/bench.xz", ".gpu/torch_anchor.py"]: ... next.sh c   the cuSOLVER anchor on
#      the qr_v2 set, 1 × 4096², 1 × 8192² (never timed on the new split rule), potrf 4096 and
#      16384, then 1 × 8192² and 2 × 4096² with the earlier split rule.
# Only a few files come back (the device tool caps their count): logs go to $OUT/*.log.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log; T=$OUT/tests.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
case "${1:-a}" in
  a)
    timeout 560 /tmp/geqrf_tests --test-threads=1 > $T 2>&1
    echo "geqrf suite rc=$? t=$SECONDS" | tee -a $R ;;
  b)
    # One test thread: `graph_replay` captures a stream, so no other test may launch meanwhile.
    timeout 560 /tmp/cholesky_tests --test-threads=1 > $T 2>&1
    echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R ;;
  c)
    F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 32x512x512|qr reduced 1x4096x4096|potrf 1x4096|potrf 1x16384"
    timeout 400 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/anchor-run.log 2>&1
    echo "bench+anchor rc=$? t=$SECONDS" | tee -a $R; tail -16 $OUT/anchor.log | tee -a $R
    timeout 90 /tmp/bench --filter "geqrf 1x8192x8192|geqrf 2x4096x4096" --samples 5 \
      --qr-split-per-sm 0 --qr-split-chunk 256 >> $B 2>&1
    echo "earlier split rule rc=$? t=$SECONDS" | tee -a $R
    grep -E "^geqrf" $B | cut -c1-60 | tee -a $R
    touch $T ;;
esac
grep -E "^test |test result|panicked" $T | cut -c1-200 | tee -a $R
xz -T4 $T
