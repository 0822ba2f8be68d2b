#!/usr/bin/env bash
# Session 11: the solves again (final build), twice in one process each, to see the run-to-run spread.
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
xz -dc .gpu/bench.xz > /tmp/bench; chmod +x /tmp/bench
for r in 1 2; do
  /tmp/bench --filter "cholesky_solve|solve_triangular" --samples 15 --json "$OUT/ours$r.json" > "$OUT/bench$r.log" 2>&1
  grep -E "^cholesky_solve|^solve_triangular" "$OUT/bench$r.log" | cut -c1-60
done
PYTHONUNBUFFERED=1 python3 .gpu/torch_anchor.py "$OUT/ours2.json" --out "$OUT/merged.json" > "$OUT/anchor.log" 2>&1
grep -E "^cholesky_solve|^solve_triangular" "$OUT/anchor.log" | cut -c1-100
