#!/usr/bin/env bash
# Session 41, run b (carry [".gpu", ".gpu-next/fused/bench.xz"]; .gpu/ as for run a):
# (1) the whole geqrf suite (session 40's defaults never ran on an H200; the new `lookahead`
#     test: one-cube and grid panels);
# (2) potrf: this bench against session 39's fused-staged diff (.gpu-next/fused/bench.xz,
#     b6868ed + fused-staged.diff), two rounds, alternating.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/x/device.txt
timeout 360 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf-tests.log 2>&1; echo "geqrf suite rc=$?"
grep -E "^test |test result|panicked" $OUT/x/geqrf-tests.log | cut -c1-300
xz -T4 $OUT/x/geqrf-tests.log
xz -dc .gpu-next/fused/bench.xz > /tmp/bench_fused && chmod +x /tmp/bench_fused
C="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 64x1024"
for rep in 1 2; do for b in bench bench_fused; do
  timeout 45 /tmp/$b --filter "$C" --samples 7 > $OUT/x/chol-$b-$rep.log 2>&1
  echo "$b round $rep rc=$?"; grep -E "^potrf" $OUT/x/chol-$b-$rep.log | cut -c1-100
done; done
tar cJf $OUT/run-b.tar.xz -C $OUT/x . && rm -rf $OUT/x
