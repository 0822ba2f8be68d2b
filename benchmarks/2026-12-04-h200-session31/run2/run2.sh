#!/usr/bin/env bash
# Session 31, run 2: the fused panel after its product's K loop stopped spilling (run 1's
# build spilled 4 KB per unit there: a whole unrolled K). PANEL_EXP bits (a diagnostic build,
# not committed): 1 skips the wait on the flag, 2 a cube barrier instead of the storage barrier
# after it, 4 a product of one K step instead of nb, 8 no fused panel (its TRSM launch). Then ncu per-kernel times, registers and
# shared memory of the first potrf 1x1024 call. Carry: .gpu with that build's bench only.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for e in 0 8 1 2 4 0 8; do
  echo "PANEL_EXP=$e"
  PANEL_EXP=$e timeout 60 /tmp/bench --filter "potrf 1x1024|potrf 1x4096|potrf 1x16384" --samples 5 2>&1 | grep -E "^potrf"
done
M=gpu__time_duration.sum,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__grid_size
timeout 120 ncu --clock-control none --metrics $M -c 40 --csv --print-units base /tmp/bench --filter "potrf 1x1024" --samples 1 --quick > $OUT/ncu-1024.csv 2> $OUT/ncu.err; echo "ncu rc=$?"
python3 - <<'PY'
import csv,collections,os
rows=list(csv.reader(l for l in open(os.environ['OUT']+'/ncu-1024.csv') if l.startswith('"')))
h=rows[0]; ki=h.index('Kernel Name'); ii=h.index('ID'); mi=h.index('Metric Name'); vi=h.index('Metric Value')
d=collections.OrderedDict()
for r in rows[1:]:
    d.setdefault((r[ii],r[ki][:40]),{})[r[mi]]=r[vi]
for (i,k),m in d.items():
    print(i,k,' '.join(f"{a.split('__')[-1]}={b}" for a,b in m.items()))
PY
