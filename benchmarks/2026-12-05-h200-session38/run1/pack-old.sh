#!/usr/bin/env bash
# The bench of a commit (default be4b746) into .gpu/bench_old.xz, built from a worktree into
# target-cuda; the binary is taken from cargo's report.
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD
source scripts/offline-llvm.sh
rev=${1:-be4b746}
wt=/tmp/wt-$rev
[ -d $wt ] || git worktree add -f $wt $rev
exe=$(cd $wt && cargo build --release --no-default-features --features cuda --target-dir "$root/target-cuda" \
  --example bench --message-format=json 2>/dev/null | python3 -c 'import sys,json
for l in sys.stdin:
    try: m=json.loads(l)
    except Exception: continue
    if m.get("reason")=="compiler-artifact" and m.get("target",{}).get("name")=="bench" and m.get("executable"): print(m["executable"])' | tail -n1)
mkdir -p .gpu
strip -o .gpu/bench_old "$exe" && xz -T2 -9 -f .gpu/bench_old && ls -la .gpu/bench_old.xz
