#!/usr/bin/env bash
# The CUDA bench of another commit (REV, the first argument) into .gpu/bench_old.xz, to time
# it against the working tree's .gpu/bench.xz in one device call. Built from a worktree
# (/tmp/wt-REV) into target-cuda, whose dependencies are shared; the binary is taken from
# cargo's own report, so the uplifted examples/bench is not relied on.
# Usage: bash scripts/gpu-pack-old.sh REV
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
source scripts/offline-llvm.sh
rev=${1:?usage: gpu-pack-old.sh REV}
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
