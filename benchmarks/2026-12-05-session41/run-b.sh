#!/usr/bin/env bash
# Session 41, run b (carry [".gpu", ".gpu-next/fused/bench.xz"]; .gpu/ as for run a; LA=on|off
# picks geqrf's look-ahead for (1) and (2)):
# (1) issue 3's rows and the qr_v2 set against cuSOLVER (PyTorch) on the same inputs;
# (2) ncu's per-kernel times of one geqrf 1 × 4096² (where the time goes);
# (3) potrf: this bench against session 39's fused-staged diff (.gpu-next/fused/bench.xz,
#     b6868ed + fused-staged.diff), two rounds, alternating.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
LA=${LA:-on}
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
xz -dc .gpu-next/fused/bench.xz > /tmp/bench_fused && chmod +x /tmp/bench_fused
C="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 64x1024"
for rep in 1 2; do for b in bench bench_fused; do
  timeout 45 /tmp/$b --filter "$C" --samples 7 > $OUT/x/chol-$b-$rep.log 2>&1
  echo "$b round $rep rc=$?"; grep -E "^potrf" $OUT/x/chol-$b-$rep.log | cut -c1-100
done; done
NCU="ncu --clock-control none --cache-control none"
timeout 110 $NCU --metrics gpu__time_duration.sum --launch-count 1200 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 --qr-lookahead $LA > $OUT/x/ncu-geqrf-4096.txt 2>&1; echo "ncu rc=$?"
python3 scripts/ncu_sum.py $OUT/x/ncu-geqrf-4096.txt --by-grid > $OUT/x/ncu-geqrf-4096-sum.txt
xz -T4 $OUT/x/ncu-geqrf-4096.txt; cat $OUT/x/ncu-geqrf-4096-sum.txt
F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 1x4096x4096|geqrf 1x8192x8192|qr reduced 1x4096x4096|potrf 1x4096"
timeout 230 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 --qr-lookahead $LA > $OUT/x/bench-anchor.log 2>&1
echo "bench+anchor rc=$?"; cp $OUT/anchor.log $OUT/ours.json $OUT/merged.json $OUT/x/ 2>/dev/null
echo "== anchor"; tail -16 $OUT/x/anchor.log
tar cJf $OUT/run-b.tar.xz -C $OUT/x . && rm -rf $OUT/x
