#!/usr/bin/env bash
# On the device (carry [".gpu/cholesky_tests.xz"]): the IR log of one small test run, the
# tensor-core kernel's function extracted, its allocas listed (none as of session 7), and the
# IR returned compressed under $OUT.
xz -dc .gpu/cholesky_tests.xz > /tmp/ct; chmod +x /tmp/ct
cd /tmp && CUBECL_DEBUG_LOG=/tmp/ir.log timeout 100 /tmp/ct --test-threads=1 gemm_long_k > /dev/null 2>&1
awk '/^define.*gemm_tc_kernel/{f=1} f{print} f&&/^}/{exit}' /tmp/ir.log > /tmp/tc.ll
awk '/^define.*gemm_kernel/{f=1} f{print} f&&/^}/{exit}' /tmp/ir.log > /tmp/simt.ll
wc -l /tmp/tc.ll /tmp/simt.ll
echo "== tc allocas"; grep -n "alloca" /tmp/tc.ll | head -20
echo "== simt allocas"; grep -n "alloca" /tmp/simt.ll | head -10
for v in $(grep -o "^  %[a-z0-9_]* = alloca" /tmp/tc.ll | awk '{print $1}' | head -8); do
  echo "== uses of $v"; grep -n "$v\b" /tmp/tc.ll | grep -v "= alloca" | head -6
done
cp /tmp/tc.ll $OUT/ 2>/dev/null; xz -9 -k $OUT/tc.ll 2>/dev/null; rm -f $OUT/tc.ll
