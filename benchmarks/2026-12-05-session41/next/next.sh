#!/usr/bin/env bash
# For the next device session (prepared in session 41). Pack here first:
#   TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh
# (prebuilt on 6a04b45, whose kernels and tests are the final ones of session 41: .gpu/ and .gpu-next/s41/; copy the
# latter into .gpu/ instead of packing if no crate has changed since)
# then on the GPU (device tool), three calls:
#   a: carry [".gpu/bench.xz"]:  bash benchmarks/2026-12-05-session41/next/next.sh a   # ~9 min
#   b: carry [".gpu/bench.xz", ".gpu-next/fused/bench.xz"]:  ... next.sh b            # ~6 min
#   c: carry [".gpu"]:  ... next.sh c   # the whole geqrf suite, ~6–8 min
# a: (1) geqrf look-ahead (`--qr-lookahead on`, opt-in) against off, one bench process per
#    shape and setting (session 41's run-min lost every shape after 8 × 2048² to one 60 s
#    limit: 2 × 4096², then at 1024 units, did not finish; 1 × 4096², the shape look-ahead is
#    for, was never reached), 1 × 4096² first, after a pass that fills the JIT cache.
# c: the whole geqrf suite (session 41 ran 9 of 17 on an H100 before its 210 s limit;
#    `lookahead` was still running).
# b: (1) potrf: this bench against session 39's fused-staged diff (.gpu-next/fused/bench.xz,
#    b6868ed + fused-staged.diff; next-fused.sh in session 39's folder says what it is);
#    (2) issue 3's rows and the qr_v2 set against cuSOLVER (PyTorch) on the same inputs.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/x/device.txt
S="geqrf 1x4096x4096|qr reduced 1x4096x4096|geqrf 1x8192x8192|geqrf 32x512x512|geqrf 40x352x352|geqrf 2x4096x4096"
if [ "${1:-a}" = a ]; then
  # The JIT first (in run-min, round 1 of the bench without look-ahead did not finish its
  # five shapes in 60 s and round 2 did, so compiled kernels seem to outlive the process —
  # the driver's cache, at least), then one process per shape and setting.
  for la in on off; do
    timeout 150 /tmp/bench --filter "$S" --samples 1 --qr-lookahead $la > $OUT/x/jit-$la.log 2>&1
    echo "JIT pass, lookahead $la rc=$?"
  done
  for s in "geqrf 1x4096x4096" "qr reduced 1x4096x4096" "geqrf 1x8192x8192" "geqrf 32x512x512" "geqrf 40x352x352" "geqrf 2x4096x4096"; do
    for la in off on off on; do
      f=$OUT/x/la-$(echo "$s" | tr ' ' '_')-$la.log
      timeout 40 /tmp/bench --filter "$s" --samples 5 --qr-lookahead $la >> $f 2>&1
      echo "$s lookahead $la rc=$? $(grep -E "^(geqrf|qr)" $f | tail -1 | cut -c35-70)"
    done
  done
elif [ "$1" = c ]; then
  timeout 500 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
  grep -E "^test |test result|panicked" $OUT/x/geqrf-tests.log | cut -c1-300
  xz -T4 $OUT/x/geqrf-tests.log
else
  xz -dc .gpu-next/fused/bench.xz > /tmp/bench_fused && chmod +x /tmp/bench_fused
  C="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 64x1024"
  for rep in 1 2; do for b in bench bench_fused; do
    timeout 45 /tmp/$b --filter "$C" --samples 7 > $OUT/x/chol-$b-$rep.log 2>&1
    echo "$b round $rep rc=$?"; grep -E "^potrf" $OUT/x/chol-$b-$rep.log | cut -c1-100
  done; done
  F="geqrf 1x4096x4096|geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 1x8192x8192|qr reduced 1x4096x4096|potrf 1x4096"
  timeout 200 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/x/bench-anchor.log 2>&1
  echo "bench+anchor rc=$?"; cp $OUT/anchor.log $OUT/ours.json $OUT/merged.json $OUT/x/ 2>/dev/null
  echo "== anchor"; tail -16 $OUT/x/anchor.log
fi
tar cJf $OUT/next-${1:-a}.tar.xz -C $OUT/x . && rm -rf $OUT/x
