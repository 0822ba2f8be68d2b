#!/usr/bin/env bash
# Session 13, run 2: the blocked diagonal-block kernel's K-trip length (leaf_unroll): registers
# and single-cube times of the leaf and fused kernels (ncu), then the leaf sweep.
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
timeout 120 ncu --metrics launch__registers_per_thread,gpu__time_duration.sum -k regex:"syrk_leaf|blocked_leaf" -c 1500 /tmp/bench --leaf-sweep --samples 1 > /tmp/ncu-regs.txt 2>&1
python3 scripts/ncu_regs.py /tmp/ncu-regs.txt | tee $OUT/ncu-regs.txt
timeout 200 /tmp/bench --leaf-sweep --samples 5 2>&1 | tee $OUT/leaf-sweep.log
