#!/usr/bin/env bash
# Session 52, call E (run inline on the warm machine right after call D, same pack): potrf
# with both new defaults (`--potrf-leaf-subst on --potrf-tri-grid on`) against the defaults
# of then (both off), alternated, two rounds; then cuSOLVER (PyTorch) on the same inputs.
# After this session the two flags are the defaults: compare with `--potrf-leaf-subst off
# --potrf-tri-grid off` instead.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
for r in 1 2; do
  for v in default new; do
    f=(); [ $v = new ] && f=(--potrf-leaf-subst on --potrf-tri-grid on)
    echo "== $v-$r"
    timeout 40 /tmp/bench --filter "$P" --samples 5 "${f[@]}" 2>&1 | grep "^potrf" | cut -c1-80
  done
done
timeout 40 /tmp/bench --filter "potrf 1x4096|potrf 1x16384" --samples 5 --potrf-leaf-subst on \
  --potrf-tri-grid on --json $OUT/ours.json > /dev/null 2>&1
PYTHONUNBUFFERED=1 timeout 90 python3 .gpu/torch_anchor.py $OUT/ours.json --out $OUT/merged.json 2>&1 | tail -6
