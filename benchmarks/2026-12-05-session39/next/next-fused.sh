#!/usr/bin/env bash
# Prepared in session 39 (no device lent), not run: potrf's fused step (SYRK tile + next
# diagonal block, `potrf/fused.rs`) without the global round trip between its product and
# its diagonal block (`fused-staged.diff`, on a9d8683):
# - every cube of the fused launch issues its tile's C loads right behind the first K
#   window's loads (`gemm_vec_acc(…, c_first)`), instead of after the product;
# - cube 0 (the tile that is the next diagonal block) reads `info` before the product and
#   hands its updated block to the diagonal-block code through shared memory
#   (`stage_block`, laid out as that code's loader would), so the global store, the
#   storage barrier (device-scope fences around a cube barrier) and the reload leave the
#   critical path of every step; where the matrix has already failed it stores its tile
#   like the other cubes and leaves.
# Why: one cube runs per multiprocessor in the fused launch (the diagonal block's registers;
# sessions 16, 31, 32), so nothing hides either round trip; cube 0's sits on the chain of
# diagonal blocks that bounds potrf 1024–4096 (64 steps at 4096).
# ptxas 13 here (`scripts/local-sass.sh fused`): 178 registers, no spill (committed: 128 and a
# 24-byte spill here; the H200's JIT gave 176 in session 16); 6184 instructions (6440);
# between barriers 446 | 775 | 154 | 75 | … (committed 288 | 777 | 224 | 393 | …: the
# diagonal block's load phase drops from 393 to 75). The standalone GEMM kernel is
# byte-identical (`local-sass.sh vec`: 74 registers).
# Tests here with the diff: the Cholesky suite passes on the CPU runtime (18/18) and on
# lavapipe (18/18); `fused_syrk_leaf` takes the staged path on the CPU runtime, and three
# mutations fail it (old C values dropped; the identity padding moved by a row; a failed
# matrix factored again).
# Pack here:
#   bash scripts/gpu-pack-old.sh a9d8683    # the committed bench as .gpu/bench_old.xz
#   git apply benchmarks/2026-12-05-session39/next/fused-staged.diff
#   TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh
# The carry limit (64 MiB with the tree) does not hold both benches and the test binary, so
# two calls, carry [".gpu"]:
# 1. `bash next-fused.sh tests` (~5 min) with .gpu/bench*.xz moved to /tmp;
# 2. `bash next-fused.sh time` (~3 min) with .gpu/cholesky_tests.xz moved to /tmp instead.
# If the diff wins at 1024–4096 and loses nowhere, commit it and run the whole Cholesky
# suite (two calls, split by --skip, as session 38 did).
# Prebuilt in session 39 (b6868ed, the diff applied for bench and cholesky_tests; the diff
# applies on 001315c, whose kernels compile to the same SASS, with and without it):
# .gpu-next/fused/{bench_old,bench,cholesky_tests}.xz; move them into .gpu/ instead of
# packing, if the kernels have not changed since.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
if [ "${1:-time}" = tests ]; then
  timeout 420 /tmp/cholesky_tests --test-threads=1 fused_syrk_leaf sizes_straddle right_looking \
    info_reports graph_replay large_matrix conditioning > $OUT/x/fused-tests.log 2>&1
  echo "fused tests rc=$?"; grep -E "^test |test result|panicked" $OUT/x/fused-tests.log | cut -c1-300
else
  xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
  F="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 64x1024"
  for rep in 1 2; do for b in bench_old bench; do
    timeout 60 /tmp/$b --filter "$F" --samples 7 > $OUT/x/chol-$b-$rep.log 2>&1
    echo "$b round $rep rc=$?"; grep -E "^potrf" $OUT/x/chol-$b-$rep.log | cut -c1-90
  done; done
fi
tar cJf $OUT/next-fused-${1:-time}.tar.xz -C $OUT/x .
