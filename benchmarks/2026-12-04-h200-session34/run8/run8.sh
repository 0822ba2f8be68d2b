#!/usr/bin/env bash
# Session 34 run 8 (the device tool's command, same machine and binaries): two more; the
# device budget's last seconds cut leaf_kernels at 35 s.
export OUT=${OUT:-/tmp/out}; for t in inverse_blocks leaf_kernels; do timeout 35 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "test result|panicked" $OUT/$t.log | cut -c1-200; done
