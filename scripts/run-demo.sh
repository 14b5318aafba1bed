#!/usr/bin/env bash
# Installs the build dependencies, builds sextantd and serves the demo cluster in snapshot
# mode on 127.0.0.1:8080 (Ctrl-C stops it). Try: curl localhost:8080/api/v1/sections
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export CCACHE_DIR="${SEXTANT_CACHE:-$HOME/.cache/sextant}/ccache"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEXTANT_TESTS=OFF -DSEXTANT_BENCH=OFF >/dev/null
cmake --build build --target sextantd
exec build/cmd/sextantd/sextantd --snapshot examples/demo-cluster --now 2026-11-29T12:00:00Z "$@"
