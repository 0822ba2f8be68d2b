#!/usr/bin/env bash
# Session 35 run 1 (.gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh` on 40721c4 +
# the bench's --potrf-probe): the Cholesky tests session 34 owed on the H200 (its vector copy),
# ncu's full set on the rows kernel for lower and upper 1024 × 64² (why upper is ~3 µs
# slower), and the right-looking cutoff re-swept with today's GEMMs.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for uplo in lower upper; do
  flag=""; [ $uplo = upper ] && flag="--upper"
  timeout 90 ncu --set full -k regex:rows_kernel --launch-skip 2 --launch-count 1 -f -o $OUT/$uplo \
    /tmp/bench --potrf-probe 1024x64 $flag > $OUT/ncu-$uplo.log 2>&1; echo "ncu $uplo rc=$?"
  ncu -i $OUT/$uplo.ncu-rep --page details > $OUT/$uplo-details.txt 2>&1
  ncu -i $OUT/$uplo.ncu-rep --page source --print-source sass --csv > $OUT/$uplo-sass.csv 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Executed Ipc A|Warp Cycles Per Issued" $OUT/$uplo-details.txt | head -8
done
tar cJf $OUT/ncu-rows.tar.xz -C $OUT lower-sass.csv upper-sass.csv lower.ncu-rep upper.ncu-rep 2>/dev/null; rm -f $OUT/*-sass.csv $OUT/*.ncu-rep
for t in copy_modes leaf_kernels graph_replay gemm_long_k gemm_views triangular_solves; do
  timeout 120 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/$t.log | cut -c1-300
done
timeout 170 /tmp/bench --blocked-sweep --samples 5 > $OUT/blocked-sweep.log 2>&1; echo "blocked sweep rc=$?"
cat $OUT/blocked-sweep.log | grep -v "^bench on"
