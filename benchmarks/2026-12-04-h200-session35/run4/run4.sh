#!/usr/bin/env bash
# Session 35 run 4: the skewed staging for upper only (lower keeps rows of nb/4 + 1 vectors),
# `bench`, against the same with upper's block load unrolled whole instead of two trips,
# `bench_exp` (ptxas 13 here: 224 registers against 141). .gpu/: bench from
# `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh` (tests left out: carry limit), bench_exp
# built the same way with `inner = trips`. Probe times per call, alternated.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
xz -dc .gpu/bench_exp.xz > /tmp/bench_exp && chmod +x /tmp/bench_exp
for rep in 1 2; do for shape in 1024x64 1024x48 4096x64 4096x32 16384x16; do for uplo in lower upper; do
  flag=""; [ $uplo = upper ] && flag="--upper"
  for b in bench bench_exp; do
    [ $uplo = lower ] && [ $b = bench_exp ] && continue   # lower: the same kernel
    t=$(timeout 30 /tmp/$b --potrf-probe $shape $flag --samples 9 2>&1 | grep "ms per call" | sed 's/.*device \([0-9.]*\).*/\1/')
    echo "$rep $shape $uplo $b $t"
  done
done; done; done | tee $OUT/x/probe.log
tar cJf $OUT/run4.tar.xz -C $OUT/x .
