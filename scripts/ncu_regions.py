#!/usr/bin/env python3
"""Warp-stall samples of one kernel per barrier-delimited region of its SASS.

Input: `ncu -i REP --page source --csv --print-source sass > FILE.csv` of a report taken with
`--set full` (densest sampling: `--warp-sampling-interval 0`). Each region runs from one
BAR.SYNC to the next: in a cube-wide phase kernel, one phase per region. A warp that waits at a
barrier is sampled on the instruction after it, so a region's `barrier` samples measure the
phase before it. Prints per region: instructions, executed warp instructions, samples and the
top stall reasons.

Usage: python3 scripts/ncu_regions.py FILE.csv
"""
import collections
import csv
import sys

rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[1]
data = [r for r in rows[2:] if len(r) >= len(hdr)]
ci = {h: i for i, h in enumerate(hdr)}
stalls = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
bars = [i for i, r in enumerate(data) if "BAR.SYNC" in r[ci["Source"]]]
bounds = [0] + [b + 1 for b in bars] + [len(data)]
total = 0
for a, b in zip(bounds, bounds[1:]):
    seg = data[a:b]
    samples = sum(int(r[ci["Warp Stall Sampling (All Samples)"]] or 0) for r in seg)
    executed = sum(int(r[ci["Instructions Executed"]] or 0) for r in seg)
    total += samples
    reasons = collections.Counter()
    for r in seg:
        for h in stalls:
            v = r[ci[h]]
            if v and v != "-":
                reasons[h[len("stall_"):]] += int(v)
    first, last = seg[0][ci["Address"]][-5:], seg[-1][ci["Address"]][-5:]
    top = ", ".join(f"{k} {v}" for k, v in reasons.most_common(4) if v)
    print(f"{first}..{last}  instrs {b - a:5d}  executed {executed:6d}  samples {samples:5d}  {top}")
print(f"total samples {total}")
