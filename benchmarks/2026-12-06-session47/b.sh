#!/usr/bin/env bash
# Session 47, call B (carry [".gpu"]: bench.xz, geqrf_tests.xz, cholesky_tests.xz packed with
# the new geqrf defaults: the register product for ≤ 8 matrices of ≥ 2048 rows, grid panels
# of > 4096 rows at ~256 rows per cube):
# 1. the new defaults against the old (`--qr-product off --qr-panel-grid-tall 0,0`), two
#    alternated rounds, geqrf / orgqr / qr on the shapes the rule covers;
# 2. ncu per-launch times of one potrf 4096 call, and the fused step's sections at an early
#    and a late step (where its time goes);
# 3. the geqrf suite on the new defaults (`product_regs` passed in call A on the same kernels).
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
F="geqrf 1x4096x4096|geqrf 2x4096x4096|geqrf 8x2048x2048|geqrf 1x8192x8192|orgqr 1x4096x4096|qr reduced 1x4096x4096|orgqr 2x4096x4096"
for r in 1 2; do
  for v in new old; do
    flags=(); [ $v = old ] && flags=(--qr-product off --qr-panel-grid-tall 0,0)
    echo "== $v-$r" >> $B
    timeout 70 /tmp/bench --filter "$F" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^(geqrf|qr|orgqr)/' $B | cut -c1-60 | tee -a $R
  done
done
P="potrf 1x4096"
timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 300 /tmp/bench --filter "$P" --samples 1 > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf times rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
S=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
   --section SchedulerStats --section InstructionStats
   --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio")
timeout 60 ncu --clock-control none --cache-control none "${S[@]}" -k regex:syrk_leaf \
  --launch-skip 4 -c 1 /tmp/bench --filter "$P" --samples 1 > $OUT/ncu-fused.log 2>&1
echo "ncu fused early rc=$? t=$SECONDS" | tee -a $R
timeout 60 ncu --clock-control none --cache-control none "${S[@]}" -k regex:syrk_leaf \
  --launch-skip 58 -c 1 /tmp/bench --filter "$P" --samples 1 >> $OUT/ncu-fused.log 2>&1
echo "ncu fused late rc=$? t=$SECONDS" | tee -a $R
grep -E "^  [a-z_]+kernel|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Stall|Issued Ipc|Executed Ipc|Block Size|Grid Size|Shared Memory Config|No Eligible|Instructions|stalled_" \
  $OUT/ncu-fused.log | cut -c1-110 | tee -a $R
xz -T4 $OUT/ncu-potrf.log $OUT/ncu-fused.log
left=$((575 - SECONDS))
timeout $left /tmp/geqrf_tests --test-threads=1 --skip product_regs > $OUT/tests.log 2>&1
echo "geqrf tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-160 | tee -a $R
xz -9 $OUT/tests.log
