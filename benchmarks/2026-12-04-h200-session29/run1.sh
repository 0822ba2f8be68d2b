#!/usr/bin/env bash
# Session 29, run 1, on session 28's final tree plus unmeasured-trsv-sub.diff (its option is
# off by default, so the default paths are session 28's): householder_product 1 × 8192² under
# ncu (per-kernel times: where the 0.77× against cuSOLVER goes), the chain sweep whose last
# column is blocks of two leaves (`trsv_sub`), then the whole Cholesky suite on one thread.
# Carry: .gpu from `TESTS="geqrf cholesky" BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
NCU="ncu --clock-control none --cache-control none"
timeout 160 $NCU --metrics gpu__time_duration.sum --launch-count 9000 /tmp/bench --filter "orgqr 1x8192" --samples 1 > $OUT/ncu-orgqr-8192.txt 2>&1; echo "ncu rc=$?"
python3 scripts/ncu_sum.py $OUT/ncu-orgqr-8192.txt --by-grid > $OUT/ncu-orgqr-8192-sum.txt 2>&1; xz -T4 $OUT/ncu-orgqr-8192.txt
head -40 $OUT/ncu-orgqr-8192-sum.txt | cut -c1-150
timeout 150 /tmp/bench --trsv-sweep --samples 7 > $OUT/trsv-sweep.log 2>&1; echo "trsv-sweep rc=$?"
grep -v "^\s*$" $OUT/trsv-sweep.log | tail -12 | cut -c1-130
timeout 380 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky.log 2>&1; echo "cholesky rc=$?"
grep -E "test result|panicked|FAILED" $OUT/cholesky.log | head -6
