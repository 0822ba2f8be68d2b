#!/usr/bin/env bash
# The bench of 9cc989c (geqrf before the column rescaling) into .gpu/bench_old.xz, for
# run2.sh. Built from a worktree into target-cuda (the dependencies are shared); the binary
# is taken from cargo's own report, so the uplifted examples/bench is not relied on. Run
# `TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh` after this.
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD
source scripts/offline-llvm.sh
wt=/tmp/wt-9cc989c
[ -d $wt ] || git worktree add -f $wt 9cc989c
exe=$(cd $wt && cargo build --release --no-default-features --features cuda --target-dir "$root/target-cuda" \
  --example bench --message-format=json 2>/dev/null | python3 -c 'import sys,json
for l in sys.stdin:
    try: m=json.loads(l)
    except Exception: continue
    if m.get("reason")=="compiler-artifact" and m.get("target",{}).get("name")=="bench" and m.get("executable"): print(m["executable"])' | tail -n1)
mkdir -p .gpu
strip -o .gpu/bench_old "$exe" && xz -T2 -9 -f .gpu/bench_old && ls -la .gpu/bench_old.xz
