#!/usr/bin/env bash
# For the next session (not run in session 27: the device budget was spent). Session 27's
# final tree ran on the H200 only in parts: the whole Cholesky suite on 7f6eebc (3 test
# threads, `gemm_views` then failing on a concurrent graph capture) and, with the final
# defaults, six of its tests (run 4). So first the whole suite on one thread; then the solves
# against cuSOLVER with the final defaults (so far the "now" column of BENCHMARKS.md session
# 27 is the sweeps'); the whole-block sweep with a ratio of 16 too; householder_product with
# 128 × 128 SIMT tiles on its large updates (run 5 measured only the mma kernel).
# Carry: .gpu with bench.xz and cholesky_tests.xz (TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 420 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | head -20
timeout 60 /tmp/bench --filter "solve" --samples 5 --json $OUT/solve.json > $OUT/bench-solve.log 2>&1; echo "bench rc=$?"
timeout 60 python3 .gpu/torch_anchor.py $OUT/solve.json --out $OUT/solve-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "solve" $OUT/anchor.log | head -8 | cut -c1-100
timeout 120 /tmp/bench --inv-rhs-sweep --samples 5 --inv-rhs-shapes 1x4096x32,1x4096x64,1x4096x128,1x16384x128,2x4096x128 > $OUT/inv-rhs-sweep.log 2>&1; echo "inv-rhs-sweep rc=$?"
grep -v "^\s*$" $OUT/inv-rhs-sweep.log | tail -10 | cut -c1-120
for g in default simt; do
  a=""; [ $g = default ] || a="--qr-big-gemm $g"
  timeout 60 /tmp/bench --filter "orgqr 1x4096|orgqr 1x8192" --samples 5 $a > $OUT/qr-$g.log 2>&1; echo "qr $g rc=$?"
  grep -E "orgqr" $OUT/qr-$g.log | cut -c1-90
done
