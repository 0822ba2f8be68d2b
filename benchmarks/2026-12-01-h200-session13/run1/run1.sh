#!/usr/bin/env bash
# Session 13, run 1: small-kernel and fuse sweeps, ncu of the 64×64 diagonal block, suites.
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 120 /tmp/bench --small-sweep --samples 9 2>&1 | tee $OUT/small-sweep.log
timeout 150 /tmp/bench --fuse-sweep --samples 5 2>&1 | tee $OUT/fuse-sweep.log
ncu --set full --import-source no -k regex:blocked_leaf -c 1 -o /tmp/leaf /tmp/bench --filter "potrf 1x4096" --samples 1 --quick > /tmp/ncu-leaf.log 2>&1
ncu -i /tmp/leaf.ncu-rep --page source --csv --print-source sass > /tmp/leaf-sass.csv 2>&1
ncu -i /tmp/leaf.ncu-rep --page details > $OUT/leaf-details.txt 2>&1
python3 scripts/ncu_sass_top.py /tmp/leaf-sass.csv 40 > $OUT/leaf-sass-top.txt 2>&1
ncu --section LaunchStats --section Occupancy -k regex:"gemm|syrk|small" -c 6 /tmp/bench --filter "potrf 64x1024|potrf 1x4096|potrf 1024x64" --samples 1 --quick 2>&1 | grep -E "^  [a-z_]+.*\(|Registers Per|Shared Memory Per Block|Theoretical Occ|Block Limit Reg" > $OUT/regs.txt
ncu --metrics gpu__time_duration.sum,launch__registers_per_thread -k regex:small -c 3 /tmp/bench --filter "potrf 1x64|potrf 1024x64|potrf 4096x32" --samples 1 --quick 2>&1 | grep -E "small_kernel|duration|registers" > $OUT/small-ncu.txt
bash scripts/gpu-run.sh tests > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" $OUT/tests.log | head -20
echo "== leaf sass top"; head -60 $OUT/leaf-sass-top.txt
echo "== regs"; cat $OUT/regs.txt; echo "== small ncu"; cat $OUT/small-ncu.txt
grep -E "Duration|Registers Per|Theoretical Occ|Warp Cycles Per Issued|Issued Warp" $OUT/leaf-details.txt | head
