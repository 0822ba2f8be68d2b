#!/usr/bin/env bash
# Session 18, run 2: the register panel kernel (geqrf/panel_regs.rs). The geqrf suite, then the
# geqrf rows with it (default) and without (--qr-panel-regs off), and per-kernel times of
# geqrf 32x512^2 with it (warm caches).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 240 /tmp/geqrf_tests --test-threads=1 > $OUT/geqrf_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|panicked" -A2 $OUT/geqrf_tests.log | head -40
for r in on off; do
  timeout 100 /tmp/bench --filter "geqrf" --samples 7 --qr-panel-regs $r 2>&1 | tee $OUT/geqrf-$r.log | grep -E "geqrf"
done
NCU="ncu --clock-control none --cache-control none"
timeout 60 $NCU --metrics gpu__time_duration.sum --launch-count 200 --csv /tmp/bench --filter "geqrf 32x512x512" --samples 1 > $OUT/ncu-geqrf-regs.csv 2>&1
echo "ncu rc=$?"
python3 - $OUT/ncu-geqrf-regs.csv <<'PY'
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; ki=h.index("Kernel Name"); vi=h.index("Metric Value")
seq=[(r[ki].split("(")[0][:30], float(r[vi].replace(",",""))) for r in rows[1:]]
idx=[i for i,s in enumerate(seq) if s[0].startswith("copy")]
a=idx[-1]; one=seq[a:]
print(" ".join(f"{k[:5]}:{v/1e3:.1f}" for k,v in one))
tot={}
for k,v in one: tot[k[:12]]=tot.get(k[:12],0)+v
print({k:round(v/1e3,1) for k,v in tot.items()}, "sum", round(sum(tot.values())/1e3,1))
PY
