#!/usr/bin/env bash
# Session 55, call I: where a diagonal block's time goes on potrf 4096's chain: ncu --set full
# with the densest warp sampling of (a) the blocked leaf factoring one 64 × 64 block (the probe's
# 6th launch, instructions warm), (b) a late fused step of potrf 4096 (launch 61 of 63: few update
# cubes beside the block's cube) and (c) a late panel solve; per-region stalls
# (scripts/ncu_regions.py) and the top SASS lines (scripts/ncu_sass_top.py).
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
NCU="ncu --clock-control none --cache-control none --set full --import-source no --warp-sampling-interval 0"
prof() {  # name, kernel regex, skip, bench args…
  local name=$1 k=$2 s=$3; shift 3
  timeout 90 $NCU -k regex:$k -s $s -c 1 -o /tmp/$name /tmp/bench "$@" > $OUT/ncu-$name.log 2>&1
  echo "== $name rc=$? (t=$SECONDS)" | tee -a $R
  ncu -i /tmp/$name.ncu-rep --page details > $OUT/$name-details.txt 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued" $OUT/$name-details.txt | head -8 | tee -a $R
  ncu -i /tmp/$name.ncu-rep --page source --csv --print-source sass > $OUT/$name-sass.csv 2>/dev/null
  python3 scripts/ncu_regions.py $OUT/$name-sass.csv > $OUT/$name-regions.txt 2>&1
  python3 scripts/ncu_sass_top.py $OUT/$name-sass.csv 25 > $OUT/$name-top.txt 2>&1
  head -60 $OUT/$name-regions.txt | tee -a $R
  xz -T4 $OUT/$name-sass.csv
}
prof leaf64 blocked_leaf 5 --potrf-probe 1x64 --calls 8 --potrf-batched-leaf tiled
prof fused61 syrk_leaf 60 --potrf-probe 1x4096 --calls 1
prof psolve61 panel_solve 60 --potrf-probe 1x4096 --calls 1
