#!/usr/bin/env bash
# Session 34 run 7 (the device tool's command, on run 6's warm machine and binaries): four
# more Cholesky tests that reach potrf's input copy.
export OUT=${OUT:-/tmp/out}; for t in cholesky_solve_and_inverse right_looking_cutoff fused_syrk_leaf large_matrix; do timeout 30 /tmp/cholesky_tests --test-threads=1 --exact cuda::$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "test result|panicked" $OUT/$t.log | cut -c1-200; done
