#!/usr/bin/env bash
# Session 49, call A (ran on 81c1051, the fused panel; `rejected-fused-panel.diff` applies it on bff3d6a). Pack first: `TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`, carry
# [".gpu"], ~450 s): `bash benchmarks/2026-12-06-session49/a.sh`
# 1. `fused_syrk_leaf`: the fused panel (`fused_panel`: the next step's panel solved in the
#    fused launch) and session 48's `panel_mma`, both on a GPU for the first time.
# 2. potrf 2048 / 4096 / 8192 / 16384, alternated, two rounds: the default; `--potrf-fused-panel
#    on`; `--potrf-panel-mma on`.
# 3. ncu per-launch times of one potrf 4096 with the fused panel.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
timeout 220 /tmp/cholesky_tests --test-threads=1 fused_syrk_leaf > $OUT/tests.log 2>&1
echo "tests rc=$? t=$SECONDS" | tee -a $R
grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
P="potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384"
for r in 1 2; do
  for v in default fpanel pmma; do
    case $v in
      default) flags=() ;;
      fpanel) flags=(--potrf-fused-panel on) ;;
      pmma) flags=(--potrf-panel-mma on) ;;
    esac
    echo "== $v-$r" >> $B
    timeout 50 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
    echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
    awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
  done
done
timeout 40 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  -c 100 /tmp/bench --filter "potrf 1x4096" --samples 1 --potrf-fused-panel on > $OUT/ncu-potrf.log 2>&1
echo "ncu potrf fused panel rc=$? t=$SECONDS" | tee -a $R
python3 scripts/ncu_sum.py $OUT/ncu-potrf.log --by-grid | tee -a $R
xz -T4 $OUT/ncu-potrf.log $OUT/tests.log
