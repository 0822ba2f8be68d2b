#!/usr/bin/env bash
# Prepared in session 31, not run (no device time left): the diagonal-block kernel's pivot
# test off the square root's chain, and with PIVOT_RECIP=1 also the update's 1/p as one
# division instead of (1/√p)² (next/pivot-test.diff on 70c26c4; .gpu/bench built with it,
# .gpu/bench_old without), alternated against the committed kernel. Bench only: if it wins,
# land the winner without the PIVOT_RECIP switch and run the whole Cholesky suite.
cd "$(dirname "$0")/../../.."
for b in bench bench_old; do xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
run() { echo "== $*"; timeout 40 "$@" --filter "potrf 1x1024|potrf 1x4096|potrf 64x1024|potrf 1x16384" --samples 5 2>&1 | grep -E "^potrf"; }
for t in 1 2; do
  run /tmp/bench_old
  run /tmp/bench
  PIVOT_RECIP=1 run /tmp/bench
done
