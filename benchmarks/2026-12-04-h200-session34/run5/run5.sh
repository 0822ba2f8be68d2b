#!/usr/bin/env bash
# Session 34 run 5: where batched medium potrf goes (256 × 256², 64 × 1024²): ncu per-kernel
# times, registers and grid of the first launches (the bench's first call of each case).
# .gpu/ as run 4 (its bench; the diagnostic diff touches only the rows kernel, which these
# orders do not run).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for c in "potrf 256x256" "potrf 64x1024"; do
  f=$OUT/ncu-$(echo $c | tr ' ' '-').csv
  timeout 100 ncu --clock-control none --cache-control none --csv --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size \
    --launch-count 60 /tmp/bench --filter "$c" --samples 1 > $f 2>&1; echo "$c ncu rc=$?"
done
python3 - <<'PY'
import csv, glob, os, collections
for f in sorted(glob.glob(os.environ["OUT"] + "/ncu-*.csv")):
    rows = [l for l in open(f) if l.startswith('"')]
    r = list(csv.DictReader(rows))
    print("==", os.path.basename(f), len(r), "metric rows")
    by = collections.OrderedDict()
    for x in r:
        k = (x["ID"], x["Kernel Name"][:60])
        by.setdefault(k, {})[x["Metric Name"]] = x["Metric Value"]
    for (i, name), m in by.items():
        print(f'{i:>3} {name:<60} {m.get("gpu__time_duration.sum",""):>10} {m.get("launch__registers_per_thread",""):>4} grid {m.get("launch__grid_size",""):>7} block {m.get("launch__block_size","")}')
PY
