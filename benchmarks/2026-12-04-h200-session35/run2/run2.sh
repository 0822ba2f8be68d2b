#!/usr/bin/env bash
# Session 35 run 2 (.gpu/ as run 1, the probe now timed with --samples): run 1's ncu (full set,
# base clocks, caches flushed) timed the rows kernel at 33.9 µs for lower and 34.2 for upper,
# 1024 × 64², while the bench has 18.3 against 21.2 µs per call. So: the probe's times per
# call, alternated; the kernel's in-situ durations (clocks and caches left alone); the full
# set in those conditions, one tarball; then batched_small (owed on this build).
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for i in 1 2; do for uplo in lower upper; do
  flag=""; [ $uplo = upper ] && flag="--upper"
  timeout 30 /tmp/bench --potrf-probe 1024x64 $flag --samples 9 2>&1 | grep "ms per call"
done; done
for uplo in lower upper; do
  flag=""; [ $uplo = upper ] && flag="--upper"
  timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum,smsp__cycles_active.avg,sm__throughput.avg.pct_of_peak_sustained_elapsed -k regex:rows_kernel --launch-skip 2 --launch-count 8 \
    /tmp/bench --potrf-probe 1024x64 $flag --calls 10 > $OUT/x/insitu-$uplo.log 2>&1
  echo "$uplo in situ (us):" $(grep gpu__time_duration $OUT/x/insitu-$uplo.log | awk '{print $NF}')
  timeout 90 ncu --set full --import-source no --clock-control none --cache-control none -k regex:rows_kernel --launch-skip 2 --launch-count 1 -f -o $OUT/x/$uplo \
    /tmp/bench --potrf-probe 1024x64 $flag > $OUT/x/ncu-$uplo.log 2>&1; echo "ncu $uplo rc=$?"
  ncu -i $OUT/x/$uplo.ncu-rep --page details > $OUT/x/$uplo-details.txt 2>&1
  ncu -i $OUT/x/$uplo.ncu-rep --page source --print-source sass --csv > $OUT/x/$uplo-sass.csv 2>&1
  grep -E " Duration|Warp Cycles Per Issued|L2 Hit|DRAM Through" $OUT/x/$uplo-details.txt | head -5
done
timeout 280 /tmp/cholesky_tests --test-threads=1 --exact cuda::batched_small > $OUT/x/batched_small.log 2>&1; echo "batched_small rc=$?"
grep -E "test result|panicked" $OUT/x/batched_small.log | cut -c1-300
tar cJf $OUT/run2.tar.xz -C $OUT/x .
