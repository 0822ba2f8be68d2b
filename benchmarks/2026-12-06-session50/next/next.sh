#!/usr/bin/env bash
# Prepared in session 50 for the next session, not run (no device time left). Pack on the tree
# first (`TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh`), carry [".gpu"]:
#   bash benchmarks/2026-12-06-session50/next/next.sh suite    # ~450 s: the whole Cholesky suite
#   bash benchmarks/2026-12-06-session50/next/next.sh bench    # ~250 s
# suite: the whole Cholesky suite on 013d5e9's defaults (substitution for single matrices);
#   only 7 of its 20 tests ran on the new default (session 50, call F, with a variant of the
#   panel kernel), so it is owed.
# bench: single matrices and batches, the default against `--potrf-step-substitution off`
#   (and `on`, which forces it on batches), alternated, two rounds; then cuSOLVER through
#   PyTorch on the same inputs for the single matrices.
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log; B=$OUT/bench.log
bash scripts/gpu-run.sh none > /dev/null 2>&1   # unpack only
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
case "${1:-suite}" in
  suite)
    # One test thread: `graph_replay` captures a stream, so no other test may launch meanwhile.
    timeout 560 /tmp/cholesky_tests --test-threads=1 > $OUT/tests.log 2>&1
    echo "cholesky suite rc=$? t=$SECONDS" | tee -a $R
    grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-200 | tee -a $R
    xz -T4 $OUT/tests.log ;;
  bench)
    P="potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384|potrf 256x256|potrf 64x1024"
    for r in 1 2; do
      for v in default off on; do
        flags=(); [ $v != default ] && flags=(--potrf-step-substitution $v)
        echo "== $v-$r" >> $B
        timeout 70 /tmp/bench --filter "$P" --samples 5 "${flags[@]}" >> $B 2>&1
        echo "bench $v round $r rc=$? t=$SECONDS" | tee -a $R
        awk -v v="$v-$r" '/^== /{cur=$2} cur==v && /^potrf/' $B | cut -c1-90 | tee -a $R
      done
    done
    timeout 70 /tmp/bench --filter "potrf 1x1024|potrf 1x2048|potrf 1x4096|potrf 1x8192|potrf 1x16384" --samples 5 --json $OUT/ours.json > $OUT/bench-json.log 2>&1
    echo "bench json rc=$? t=$SECONDS" | tee -a $R
    PYTHONUNBUFFERED=1 timeout 120 python3 .gpu/torch_anchor.py $OUT/ours.json --out $OUT/merged.json > $OUT/anchor.log 2>&1
    echo "anchor rc=$? t=$SECONDS" | tee -a $R
    tail -12 $OUT/anchor.log | tee -a $R ;;
esac
