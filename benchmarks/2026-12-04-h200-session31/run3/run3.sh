#!/usr/bin/env bash
# Session 31, run 3: where the diagonal-block kernel's time goes, by leaving parts out
# (LEAF_DIAG bits of a diagnostic build, run3/leaf-diag.diff on 70c26c4; results are wrong
# except with 0): 1 the sub-block inverse's steps in F (plane 0), 2 the W and X phases
# (the rest of the block's inverse), 4 the pivot's IEEE reciprocal square root (the pivot
# itself is used), 8 the column updates inside F, 16 no pivot test (a failed pivot goes on;
# the bench skips its info check). Carry: .gpu with that build's bench only.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for d in 0 16 20 21 2 0; do
  echo "LEAF_DIAG=$d"
  LEAF_DIAG=$d timeout 60 /tmp/bench --filter "potrf 1x1024|potrf 1x4096|potrf 64x1024" --samples 5 2>&1 | grep -E "^potrf"
done
