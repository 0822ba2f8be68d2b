#!/usr/bin/env bash
# For the next device session (prepared in session 44 on its final tree). Pack here first:
#   TESTS="cholesky" BENCH=1 bash scripts/gpu-pack.sh     # ~5 min warm; ~40 MiB in .gpu/
# then on the GPU (device tool, carry [".gpu"]), one call per letter:
#   a: bash benchmarks/2026-12-05-session44/next/next.sh a
#      the Cholesky suite on session 43's default (fused steps staged, late C): 5 of its 18
#      tests ran on it; session 44's device time ran out before the other 13 (it takes more
#      than 335 s: leaf_kernels, batched_small and gemm_long_k, untouched by that default,
#      come last and may be cut)
#   b: ... next.sh b   the cuSOLVER anchor on the qr_v2 set, 1 × 4096², 1 × 8192², 32 × 512²,
#      qr reduced 1 × 4096², potrf 4096 and 16384 (none since session 42, H200)
#   c: ... next.sh c   two rounds of session 44's grid-size leads against the default:
#      --qr-panel-grid 128 (grids down to two cubes; 2 × 4096² 19.22 against 19.54) and 256
#      (1 × 8192² 57.07 against 57.96)
cd "$(dirname "$0")/../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=$OUT/run.log
for b in bench cholesky_tests; do
  [ -f .gpu/$b.xz ] && xz -dc .gpu/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $R
case "${1:-a}" in
  a)
    timeout 560 /tmp/cholesky_tests --test-threads=1 conditioning extreme_scaling \
      info_reports_first_failure nonfinite_and_errors strided_views cholesky_solve_and_inverse \
      right_looking_cutoff graph_replay copy_modes inverse_blocks > $OUT/tests.log 2>&1
    echo "cholesky tests rc=$? t=$SECONDS" | tee -a $R
    left=$((560 - SECONDS))
    timeout $left /tmp/cholesky_tests --test-threads=1 leaf_kernels batched_small gemm_long_k \
      >> $OUT/tests.log 2>&1
    echo "the rest rc=$? t=$SECONDS" | tee -a $R
    grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-160 | tee -a $R
    xz -9 $OUT/tests.log ;;
  b)
    F="geqrf 20x32x32|geqrf 40x176x176|geqrf 40x352x352|geqrf 640x512x512|geqrf 60x1024x1024|geqrf 8x2048x2048|geqrf 2x4096x4096|geqrf 1x4096x4096|geqrf 1x8192x8192|geqrf 32x512x512|qr reduced 1x4096x4096|potrf 1x4096|potrf 1x16384"
    timeout 500 bash scripts/gpu-run.sh bench --filter "$F" --samples 5 > $OUT/anchor-run.log 2>&1
    echo "bench+anchor rc=$? t=$SECONDS" | tee -a $R; tail -16 $OUT/anchor.log | tee -a $R ;;
  c)
    F="geqrf 1x4096x4096|geqrf 2x4096x4096|geqrf 8x2048x2048|geqrf 1x8192x8192"
    for r in 1 2; do
      for v in default 128 256; do
        flags=(); [ $v != default ] && flags=(--qr-panel-grid $v)
        timeout 100 /tmp/bench --filter "$F" --samples 5 "${flags[@]}" > $OUT/grid-$v-$r.log 2>&1
        echo "grid $v round $r rc=$? t=$SECONDS" | tee -a $R
      done
    done
    for v in default 128 256; do
      echo "== $v" | tee -a $R; grep -hE "^geqrf" $OUT/grid-$v-*.log | cut -c1-60 | sort | tee -a $R
    done ;;
esac
