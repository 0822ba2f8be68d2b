#!/usr/bin/env bash
# Session 30, run 3: the pivots' reciprocal square root by multiply-adds (pivot_rsqrt, in the
# rows kernel and the blocked diagonal-block kernel) against F::inverse_sqrt (bench_old, built
# from c112fac), alternated on the potrf rows; cuSOLVER on the same inputs. (Run 4 is the
# Cholesky suite on the new kernels: the three binaries did not fit one call's 64 MiB.)
# Carry: .gpu from `TESTS=cholesky BENCH=1 bash scripts/gpu-pack.sh` less cholesky_tests.xz,
# plus bench_old.xz.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
F="potrf 1024x64|potrf 4096x32|potrf 256x256|potrf 1x1024|potrf 1x4096|potrf 1x16384|potrf 64x1024"
for r in a b; do
  timeout 80 /tmp/bench_old --filter "$F" --samples 9 > $OUT/old-$r.log 2>&1; echo "old $r rc=$?"
  timeout 80 /tmp/bench --filter "$F" --samples 9 --json $OUT/new-$r.json > $OUT/new-$r.log 2>&1; echo "new $r rc=$?"
done
timeout 120 python3 .gpu/torch_anchor.py $OUT/new-a.json --out $OUT/merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
for f in old-a new-a old-b new-b; do echo "== $f"; grep -E "^potrf" $OUT/$f.log | cut -c1-100; done
grep -E "potrf" $OUT/anchor.log | cut -c1-110
