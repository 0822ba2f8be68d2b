#!/usr/bin/env bash
# Session 35 run 3: the rows kernel's vector staging with skewed rows (RowsConfig::vec_row,
# tv_at: conflict-free 128-bit accesses for upper's 4 × 4 blocks too; this build skewed lower's
# rows as well, which run 4's did not). .gpu/: bench from
# `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh` on the change,
# bench_old the same bench on 40721c4's kernels (rows.rs and config.rs checked out).
# Probe times per call, alternated old/new, lower/upper (the tests: run 5, on the final kernel;
# the carry limit does not take both benches and the tests).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
for rep in 1 2; do for shape in 1024x64 1024x48 4096x32 16384x16; do for uplo in lower upper; do
  flag=""; [ $uplo = upper ] && flag="--upper"
  for b in bench_old bench; do
    t=$(timeout 30 /tmp/$b --potrf-probe $shape $flag --samples 9 2>&1 | grep "ms per call" | sed 's/.*device \([0-9.]*\).*/\1/')
    echo "$rep $shape $uplo $b $t"
  done
done; done; done | tee $OUT/x/probe.log
tar cJf $OUT/run3.tar.xz -C $OUT/x .
