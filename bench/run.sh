#!/usr/bin/env bash
# Builds the ingest benchmark in Release and runs it under /usr/bin/time -v (peak RSS), then the
# maskers on 1 MB inputs and a problem pass after Pod changes (bench/problems_bench.cpp).
# Usage: bench/run.sh            Results belong in README.md's "Speed and memory" table.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
command -v /usr/bin/time >/dev/null || { apt-get install -y -q time >/dev/null; }
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEXTANT_TESTS=OFF -DSEXTANT_BENCH=ON >/dev/null
cmake --build build-bench --target ingest_bench masking_bench problems_bench
/usr/bin/time -v build-bench/bench/ingest_bench 2> build-bench/time.txt
grep -E "Maximum resident|Elapsed \(wall" build-bench/time.txt
# The maskers on 1 MB inputs (README "Security"): CPU and wall milliseconds, best of 3.
build-bench/bench/masking_bench
# A problem pass after 100 Pod changes at 150 000 Pods: every object against only what changed
# (README "The scalability envelope"), with 1 500 and 15 000 standing problems.
build-bench/bench/problems_bench 150000 100 20 100
build-bench/bench/problems_bench 150000 100 20 10
