#!/usr/bin/env bash
# Session 33 run 3: the new batched small default (nb > 32 with vector I/O: 32 units of two
# rows) against the previous one (`scalar`: a unit per row, scalar I/O) in one sweep; cuSOLVER
# on the small batches; the whole Cholesky suite.
# .gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 120 /tmp/bench --small-sweep --samples 9 > $OUT/small-sweep.log 2>&1; echo "sweep rc=$?"
timeout 90 /tmp/bench --filter "potrf 1024x64|potrf 4096x32|potrf 256x256|cholesky_solve 1024x64" --samples 9 --json $OUT/ours.json > $OUT/bench.log 2>&1; echo "bench rc=$?"
PYTHONUNBUFFERED=1 timeout 90 python3 .gpu/torch_anchor.py $OUT/ours.json --out $OUT/merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
timeout 380 /tmp/cholesky_tests --test-threads=1 > $OUT/cholesky_tests.log 2>&1; echo "cholesky suite rc=$?"
grep -E "^test |test result|panicked" $OUT/cholesky_tests.log | cut -c1-300
xz -T4 $OUT/cholesky_tests.log
echo "== anchor"; tail -8 $OUT/anchor.log
echo "== sweep"; cat $OUT/small-sweep.log
