#!/usr/bin/env bash
# Session 55, call G: how long one 64 × 64 factor takes in each kernel that could sit on
# potrf 4096's chain of diagonal blocks (ncu durations, caches and clocks left alone, the
# later launches of a probe so the instructions are warm): the rows kernel (one plane, one
# barrier per column), the Crout kernel, the blocked leaf (`tiled`, the fused steps' factor);
# then every launch of one potrf 4096 call.
# Pack first: TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh; carry [".gpu"].
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
NCU="ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum"
for k in rows crout tiled; do
  timeout 60 $NCU /tmp/bench --potrf-probe 1x64 --calls 8 --potrf-batched-leaf $k > $OUT/ncu-64-$k.log 2>&1
  echo "== 1x64 $k rc=$?" | tee -a $R
  grep -E "potrf probe" $OUT/ncu-64-$k.log | tee -a $R
  grep -E "^  [a-z_]+.*\(|gpu__time_duration" $OUT/ncu-64-$k.log | paste - - | awk '{print $1, $2, $(NF)}' | tail -6 | tee -a $R
  timeout 30 /tmp/bench --potrf-probe 1x64 --calls 3 --samples 20 --potrf-batched-leaf $k 2>&1 | grep "ms per call" | tee -a $R
done
timeout 120 $NCU /tmp/bench --potrf-probe 1x4096 --calls 2 > $OUT/ncu-4096.log 2>&1
echo "== 1x4096 rc=$?" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-4096.log --by-grid --call copy_kernel 0 2>&1 | tee -a $R
grep -E "^  [a-z_]+.*\(|gpu__time_duration" $OUT/ncu-4096.log | paste - - | awk '{print $1, $(NF)}' > $OUT/ncu-4096-seq.txt
xz -T4 $OUT/ncu-4096.log
