#!/usr/bin/env bash
# Session 13, run 3 (final kernels): the leaf sweep by K-trip length (default = short trips
# only for launches that share the device), potrf and solves against cuSOLVER, both suites.
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 100 /tmp/bench --leaf-sweep --quick --samples 7 2>&1 | tee $OUT/leaf-sweep.log
timeout 280 bash scripts/gpu-run.sh bench --filter "potrf|solve" --samples 7 > $OUT/bench-run.log 2>&1
sed -n "/cuSOLVER anchor/,\$p" $OUT/bench-run.log | cut -c1-120
bash scripts/gpu-run.sh tests > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked" $OUT/tests.log | head -20
rm -f $OUT/tests.log $OUT/ours.json $OUT/bench-run.log
