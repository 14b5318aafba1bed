#!/usr/bin/env bash
# Time to ready alone, live:  [ENVELOPE=1] [RUNS=3] BUILD_DIR=build bench/scale/ready.sh
# The daemon against the server's floor and client-go, as JSON and as protobuf, taken in turns
# on the same test API server (ready_turns.sh says what each is); the cluster generated and
# loaded as run.sh does (kept between runs). The same turns are run.sh's live start.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
# shellcheck source=bench/scale/bench_lib.sh
source bench/scale/bench_lib.sh
bench_setup
: "${BUILD_DIR:?BUILD_DIR: a build folder that has cmd/sextantd/sextantd}"
SEXTANTD=$BUILD_DIR/cmd/sextantd/sextantd
mkdir -p "$OUT"
generate_cluster
# shellcheck source=bench/scale/test_cluster.sh
source bench/scale/test_cluster.sh
start_test_cluster
# shellcheck source=bench/scale/ready_turns.sh
source bench/scale/ready_turns.sh
ready_turns
