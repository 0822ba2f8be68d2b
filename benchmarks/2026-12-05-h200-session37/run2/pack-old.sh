#!/usr/bin/env bash
# The bench of 9cc989c (geqrf before the column rescaling) into .gpu/bench_old.xz, for
# run2.sh. Run `TESTS=geqrf BENCH=1 bash scripts/gpu-pack.sh` after this.
set -euo pipefail
cd "$(dirname "$0")/../../.."
exec bash scripts/gpu-pack-old.sh 9cc989c
