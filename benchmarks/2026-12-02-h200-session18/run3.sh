#!/usr/bin/env bash
# Session 18, run 3: the register panel kernel with the pivot column re-read in pass 2 (only the
# panel in registers) and up to 128 rows per unit. The geqrf suite; geqrf and qr(reduced) with
# it and without; ncu details of its first launch in geqrf 32x512^2; per-kernel times of
# householder_product 32x512^2 and 640x512^2 (warm caches).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 200 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf_tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|panicked|FAILED" -A2 $OUT/geqrf_tests.log | head -20
for r in on off; do
  timeout 120 /tmp/bench --filter "geqrf|qr reduced" --samples 7 --qr-panel-regs $r 2>&1 | tee $OUT/qr-$r.log | grep -E "geqrf|qr red"
done
NCU="ncu --clock-control none --cache-control none"
timeout 90 $NCU --set full --import-source no -k regex:panel_regs -s 0 -c 1 -o $OUT/regs /tmp/bench --filter "geqrf 32x512x512" --samples 1 > $OUT/ncu-regs.log 2>&1
echo "ncu regs rc=$?"
ncu -i $OUT/regs.ncu-rep --page details > $OUT/regs-details.txt 2>&1
grep -E "Duration|Registers Per|Local Memory|Warp Cycles Per Issued|Issued Warp|No Eligible|spill|Spill" $OUT/regs-details.txt | head -12
ncu -i $OUT/regs.ncu-rep --page source --csv --print-source sass > $OUT/regs-sass.csv 2>&1; xz -T4 $OUT/regs-sass.csv; rm -f $OUT/regs.ncu-rep
for c in 32x512x512 640x512x512; do
  timeout 60 $NCU --metrics gpu__time_duration.sum --launch-count 120 --csv /tmp/bench --filter "orgqr $c" --samples 1 > $OUT/ncu-orgqr-$c.csv 2>&1
  python3 - $OUT/ncu-orgqr-$c.csv <<'PY'
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; ki=h.index("Kernel Name"); vi=h.index("Metric Value")
tot={}; n={}
for r in rows[1:]:
    k=r[ki].split("(")[0][:24]; v=float(r[vi].replace(",",""))
    tot[k]=tot.get(k,0)+v; n[k]=n.get(k,0)+1
print(sys.argv[1].split("/")[-1], {k:(n[k],round(v/1e3)) for k,v in sorted(tot.items(),key=lambda x:-x[1])})
PY
done
