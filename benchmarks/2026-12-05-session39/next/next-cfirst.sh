#!/usr/bin/env bash
# Prepared in session 39 (no device lent), not run: potrf's fused step (SYRK tile + next
# diagonal block, `potrf/fused.rs`) issuing its tile's C loads before the K loop
# (`fused-c-first.diff`: `gemm_vec_tile(…, c_first)`; only the fused kernel asks for it).
# Why: every cube of the fused launch reserves the diagonal block's registers, so one cube
# runs per multiprocessor (sessions 16, 31, 32) and nothing hides a tile's epilogue, which
# loads C only after the product: a memory round trip per tile, on cube 0's path to the
# diagonal block in every step and on every tile of the SYRK-bound early steps of potrf 4096.
# ptxas 13 here (`scripts/local-sass.sh fused`): 171 registers, no spill (without: 128 and a
# 24-byte spill; the H200's JIT gave 176 in session 16, one cube per multiprocessor either
# way); 440 instructions before the first barrier (288), 79 in the epilogue (224). The
# standalone GEMM kernel is byte-identical (`local-sass.sh vec`: 74 registers; with
# c_first it would take 145, so it does not ask).
# Tests here: the whole Cholesky suite on the CPU runtime with the diff (18/18);
# `fused_syrk_leaf` runs the c_first path there (a mutation that drops the old C values
# fails it).
# Pack here:
#   bash scripts/gpu-pack-old.sh HEAD          # the committed bench as .gpu/bench_old.xz
#   git apply benchmarks/2026-12-05-session39/next/fused-c-first.diff
#   TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh
# One device call, carry [".gpu"]: `bash next-cfirst.sh` (~6 min): the tests that reach the
# fused step, then potrf 1024–8192 alternated against bench_old, two rounds. If the diff wins
# at 4096 and loses nowhere, commit it and run the whole Cholesky suite (two calls, split by
# --skip, as session 38 did).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
timeout 240 /tmp/cholesky_tests --test-threads=1 fused_syrk_leaf sizes_straddle right_looking \
  info_reports graph_replay > $OUT/x/fused-tests.log 2>&1; echo "fused tests rc=$?"
grep -E "^test |test result|panicked" $OUT/x/fused-tests.log | cut -c1-300
F="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 64x1024"
for rep in 1 2; do for b in bench_old bench; do
  timeout 60 /tmp/$b --filter "$F" --samples 7 > $OUT/x/chol-$b-$rep.log 2>&1
  echo "$b round $rep rc=$?"; grep -E "^potrf" $OUT/x/chol-$b-$rep.log | cut -c1-90
done; done
tar cJf $OUT/next-cfirst.tar.xz -C $OUT/x .
