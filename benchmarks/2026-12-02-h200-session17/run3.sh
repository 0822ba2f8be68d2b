#!/usr/bin/env bash
# Session 17, run 3: the Cholesky suite with the look-ahead on by default (the landing tree);
# then, with a bench built from run2/grid-cyclic.diff, ncu of the cyclic diagonal-block kernel
# alone (the first launch of `--leaf-sweep --quick`: one 64 × 64 block, 256 units, factor only;
# densest warp sampling, warm caches) and of the rows kernel on an 8 × 8 grid (small sweep, 1 × 64).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 330 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "tests rc=$?"
grep -E "^test |test result|FAILED|panicked" -A2 $OUT/cholesky_tests.log | head -40
NCU="ncu --clock-control none --cache-control none --set full --import-source no --warp-sampling-interval 0"
timeout 100 $NCU -k regex:cyclic -c 1 -o $OUT/cyclic /tmp/bench --leaf-sweep --quick --samples 1 > $OUT/ncu-cyclic.log 2>&1
echo "cyclic rc=$?"
for r in cyclic; do
  ncu -i $OUT/$r.ncu-rep --page source --csv --print-source sass > $OUT/$r-sass.csv 2>&1
  ncu -i $OUT/$r.ncu-rep --page details > $OUT/$r-details.txt 2>&1
  grep -E "Grid Size|Block Size|Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Executed Instructions  " $OUT/$r-details.txt | head -10
done
