#!/usr/bin/env bash
# Prepared in session 37 (no device was lent), for a device call after session 36's next.sh.
# .gpu/ from `TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh` on the commit that adds this file,
# plus .gpu/bench_old.xz: the bench of 9cc989c (before geqrf's column rescaling), built by
# `bash benchmarks/2026-12-05-h200-session37/next/pack-old.sh`.
# 1. `tests`: the geqrf suite on the H200 (extreme_scaling is new: matrices scaled by 1e-20 …
#    3e36 and columns 1e22 apart, through the register, shared-memory, global-memory and TSQR
#    panels; the register panel kernel's column loop changed).
# 2. `bench`: the cost of the rescaling test on the fast path. ptxas 13 counts 595 instructions
#    per column step in the register panel kernel at 1024 × 32 (542 before), 387 at 512 × 32
#    (353), 335 at 256 × 32 (313). geqrf of the qr_v2 shapes (most go through register panels)
#    and 1 × 4096², the old and new bench alternated, two rounds.
# Each part is one device call under the 600 s limit: `bash next-qr.sh tests`, `bash next-qr.sh bench`.
part=${1:-bench}
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/x
bash scripts/gpu-run.sh none > $OUT/x/gpu.txt 2>&1   # unpack only
if [ "$part" = tests ]; then
  timeout 540 /tmp/geqrf_tests --test-threads=1 > $OUT/x/geqrf_tests.log 2>&1; echo "geqrf_tests rc=$?"
  grep -E "^test |test result|panicked" $OUT/x/geqrf_tests.log | cut -c1-300
else
  xz -dc .gpu/bench_old.xz > /tmp/bench_old && chmod +x /tmp/bench_old
  F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 32x512x512|geqrf 1x4096x4096"
  for rep in 1 2; do for b in bench_old bench; do
    timeout 120 /tmp/$b --filter "$F" --samples 9 > $OUT/x/$b-$rep.log 2>&1; echo "$b round $rep rc=$?"
    grep -E "^geqrf" $OUT/x/$b-$rep.log | cut -c1-120
  done; done
fi
tar cJf $OUT/next-qr-$part.tar.xz -C $OUT/x .
