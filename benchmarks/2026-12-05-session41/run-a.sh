#!/usr/bin/env bash
# Session 41, run a (carry [".gpu/bench.xz", ".gpu-next/fused/bench.xz"]; .gpu/ from
# `TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh` on 6578426: look-ahead,
# `QrParams::lookahead`, off by default, from ffc177f):
# (1) geqrf with look-ahead on against off, same binary, alternating, on issue 3's shapes;
# (2) potrf: this bench against session 39's fused-staged diff (.gpu-next/fused/bench.xz,
#     b6868ed + fused-staged.diff), two rounds, alternating;
# (3) ncu's per-kernel times of one geqrf 1 × 4096² with look-ahead (where the time goes).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/x/device.txt
F="geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 32x512x512|geqrf 60x1024x1024|geqrf 40x352x352|qr reduced 1x4096x4096"
for rep in 1 2; do for la in off on; do
  f=$OUT/x/la-$la-$rep.log
  timeout 90 /tmp/bench --filter "$F" --samples 5 --qr-lookahead $la > $f 2>&1
  echo "lookahead $la round $rep rc=$?"; grep -E "^(geqrf|qr)" $f | cut -c1-100
done; done
xz -dc .gpu-next/fused/bench.xz > /tmp/bench_fused && chmod +x /tmp/bench_fused
C="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 64x1024"
for rep in 1 2; do for b in bench bench_fused; do
  timeout 45 /tmp/$b --filter "$C" --samples 7 > $OUT/x/chol-$b-$rep.log 2>&1
  echo "$b round $rep rc=$?"; grep -E "^potrf" $OUT/x/chol-$b-$rep.log | cut -c1-100
done; done
NCU="ncu --clock-control none --cache-control none"
timeout 100 $NCU --metrics gpu__time_duration.sum --launch-count 1200 /tmp/bench --filter "geqrf 1x4096x4096" --samples 1 --qr-lookahead on > $OUT/x/ncu-geqrf-4096.txt 2>&1; echo "ncu rc=$?"
python3 scripts/ncu_sum.py $OUT/x/ncu-geqrf-4096.txt --by-grid > $OUT/x/ncu-geqrf-4096-sum.txt
xz -T4 $OUT/x/ncu-geqrf-4096.txt; cat $OUT/x/ncu-geqrf-4096-sum.txt
tar cJf $OUT/run-a.tar.xz -C $OUT/x . && rm -rf $OUT/x
