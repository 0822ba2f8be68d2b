#!/usr/bin/env bash
# Session 33 run 1: the rows kernel's early stores (rows < 32 and the zeros above the diagonal
# stored while the last rows are factored) against the same kernel without them (`late`), in
# one sweep; cuSOLVER on the small batches; the tests that run the rows kernel.
# .gpu/ from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh`.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 150 /tmp/bench --small-sweep --samples 9 > $OUT/small-sweep.log 2>&1; echo "sweep rc=$?"
timeout 120 /tmp/bench --filter "potrf 1024x64|potrf 4096x32|potrf 256x256|potrf 64x1024" --samples 9 --json $OUT/ours.json > $OUT/bench.log 2>&1; echo "bench rc=$?"
PYTHONUNBUFFERED=1 timeout 120 python3 .gpu/torch_anchor.py $OUT/ours.json --out $OUT/merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
for t in batched_small strided_views info_reports_first_failure; do
  timeout 150 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/$t.log | cut -c1-300
done
echo "== anchor"; tail -12 $OUT/anchor.log
echo "== sweep"; cat $OUT/small-sweep.log
