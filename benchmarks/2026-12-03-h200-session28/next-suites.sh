#!/usr/bin/env bash
# For the next session, before next.sh (one call each): the Cholesky and geqrf suites on the
# H200 on session 28's final tree. After run 5, `strided_views` gained a whole-block case, and
# every test's residual and largest-error folds now fail on NaN (they used to drop it); both
# ran only on the CPU runtime and lavapipe. Pack with `TESTS="geqrf cholesky" BENCH=0 bash
# scripts/gpu-pack.sh`; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
for t in ${SUITES:-cholesky}; do   # SUITES=geqrf in a second call (each suite takes up to ~6 min)
  timeout 420 /tmp/${t}_tests --test-threads=1 > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "test result|panicked" $OUT/$t.log | head -4
done
