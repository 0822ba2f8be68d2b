#!/usr/bin/env bash
# Session 21, run 2: the mma.sync kernel: whole K windows load without predicates (rows past
# the edge clamped; run 1's ncu showed a third of the stall samples on one register move among
# the predicated loads); the split in 3 instructions per element (hi by integer rounding, lo
# left for mma.sync to truncate) instead of CubeCL's checked casts (9); MMA_DEFAULT now K
# windows of 32. GEMM tests, tensor-core sweep, ncu of
# the default, and QR with the mma kernel on updates >= 1024 against the default.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 150 /tmp/cholesky_tests --test-threads=1 gemm_ large_matrix > $OUT/chol_gemm_tests.log 2>&1; echo "cholesky gemm tests rc=$?"
grep -E "test result|panicked|FAILED" -A3 $OUT/chol_gemm_tests.log | head -20
timeout 220 /tmp/bench --tc-sweep --samples 5 > $OUT/tc-sweep.log 2>&1; echo "tc-sweep rc=$?"
tail -12 $OUT/tc-sweep.log
NCU="ncu --clock-control none --cache-control none --set full --import-source no"
timeout 100 $NCU -k regex:gemm_ -s 2 -c 1 -o /tmp/mma /tmp/bench --filter "gemm 4096" --samples 1 --quick --gemm-kernel mma > /tmp/ncu-mma.log 2>&1
echo "ncu rc=$?"
ncu -i /tmp/mma.ncu-rep --page details > $OUT/mma-details.txt 2>&1
grep -E "Duration|Registers Per|Issued Warp|No Eligible|Theoretical Occupancy|Local Memory Spilling Requests " $OUT/mma-details.txt | head -8
ncu -i /tmp/mma.ncu-rep --page source --csv --print-source sass > /tmp/mma-sass.csv 2>&1; xz -9 -c /tmp/mma-sass.csv > $OUT/mma-sass.csv.xz
Q="geqrf 1x4096x4096|geqrf 1x8192x8192|orgqr 1x4096x4096|orgqr 1x8192x8192"
timeout 90 /tmp/bench --filter "$Q" --samples 5 --qr-big-gemm mma > $OUT/bench-qr-mma.log 2>&1; echo "bench qr mma rc=$?"
timeout 90 /tmp/bench --filter "$Q" --samples 5 > $OUT/bench-qr-default.log 2>&1; echo "bench qr default rc=$?"
echo "== qr, mma for big updates"; grep -E "^(geqrf|orgqr)" $OUT/bench-qr-mma.log
echo "== qr, default"; grep -E "^(geqrf|orgqr)" $OUT/bench-qr-default.log
