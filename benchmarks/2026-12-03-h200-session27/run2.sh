#!/usr/bin/env bash
# Session 27, run 2: `bench --inv-rhs-sweep` (solves with fewer right-hand sides than
# inv_block: recursion to the leaves against whole inverted blocks of order up to inv_rhs·k),
# then the default solves against cuSOLVER (PyTorch) on the same inputs. Same .gpu as run 1.
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
[ -x /tmp/bench ] || bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack unless warm
timeout 400 /tmp/bench --inv-rhs-sweep --samples 5 > $OUT/inv-rhs-sweep.log 2>&1; echo "inv-rhs-sweep rc=$?"
grep -v "^\s*$" $OUT/inv-rhs-sweep.log | tail -21
timeout 60 /tmp/bench --filter "solve" --samples 5 --json $OUT/solve.json > $OUT/bench-solve.log 2>&1; echo "bench rc=$?"
timeout 60 python3 .gpu/torch_anchor.py $OUT/solve.json --out $OUT/solve-merged.json > $OUT/anchor.log 2>&1; echo "anchor rc=$?"
grep -E "solve" $OUT/anchor.log | head -10
