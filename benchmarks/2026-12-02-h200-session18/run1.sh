#!/usr/bin/env bash
# Session 18, run 1: the rows kernel's 4-vector column buffers (rows) against the scalar ones
# (rows-scalar) in the small sweep, the small-matrix tests on it; geqrf 32x512^2 with the one-cube
# panel kernel on every panel (--qr-tsqr-rows never) against the default, its per-kernel times
# (warm caches) and the stalls per SASS line of its first panel (512 rows).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 60 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 150 /tmp/cholesky_tests --test-threads=1 batched_small info_reports nonfinite sizes_straddle > $OUT/cholesky_small_tests.log 2>&1; echo "small tests rc=$?"
grep -E "^test |test result|panicked" -A2 $OUT/cholesky_small_tests.log | head -20
for r in default never; do
  arg=""; [ $r = never ] && arg="--qr-tsqr-rows never"
  timeout 60 /tmp/bench --filter "geqrf 32x512x512" --samples 9 $arg 2>&1 | tee $OUT/geqrf-$r.log | grep -E "geqrf"
done
NCU="ncu --clock-control none --cache-control none"
timeout 90 $NCU --metrics gpu__time_duration.sum --launch-count 400 --csv /tmp/bench --filter "geqrf 32x512x512" --samples 1 --qr-tsqr-rows never > $OUT/ncu-geqrf-never.csv 2>&1
echo "ncu times rc=$?"
timeout 120 $NCU --set full --import-source no --warp-sampling-interval 0 -k regex:panel_kernel -s 0 -c 1 -o $OUT/panel /tmp/bench --filter "geqrf 32x512x512" --samples 1 --quick --qr-tsqr-rows never > $OUT/ncu-panel.log 2>&1
echo "ncu panel rc=$?"
ncu -i $OUT/panel.ncu-rep --page source --csv --print-source sass > $OUT/panel-sass.csv 2>&1
ncu -i $OUT/panel.ncu-rep --page details > $OUT/panel-details.txt 2>&1
grep -E "Grid Size|Block Size|Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Achieved Occ" $OUT/panel-details.txt | head -10
xz -T4 $OUT/panel-sass.csv; rm -f $OUT/panel.ncu-rep
python3 - $OUT/ncu-geqrf-never.csv <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; ki=h.index("Kernel Name"); vi=h.index("Metric Value"); gi=h.index("Grid Size") if "Grid Size" in h else None
agg=collections.defaultdict(lambda:[0,0.0])
for r in rows[1:]:
    try: v=float(r[vi].replace(",",""))
    except: continue
    k=r[ki].split("(")[0][:40]
    agg[k][0]+=1; agg[k][1]+=v
tot=sum(v[1] for v in agg.values())
for k,(n,t) in sorted(agg.items(),key=lambda x:-x[1][1]): print(f"{k:42} {n:5} {t/1e3:9.1f} us {100*t/tot:5.1f}%")
PY
