#!/usr/bin/env bash
# Session 25, run 1: session 24's side-stream script (the whole Cholesky suite with 420 s, then
# `bench --inv-sweep`), with `.gpu/` packed from b93c56c plus
# benchmarks/2026-12-03-h200-session24/unfinished-side-stream.diff applied.
exec bash "$(dirname "$0")/../2026-12-03-h200-session24/side-stream-run.sh"
