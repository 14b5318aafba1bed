#!/usr/bin/env bash
# Installs what the tests need and runs every test through ctest:
#   1. the fuzz targets (clang libFuzzer), each for a bounded time over its seed corpus;
#   2. the unit and end-to-end tests under AddressSanitizer + UndefinedBehaviorSanitizer;
#   3. a warnings-as-errors build: unit, end-to-end and integration tests (the integration
#      tests start a real kube-apiserver and etcd built from Go modules by tests/apiserver/).
# The run with every test comes last, so ctest's closing line counts them all.
# Caches (ccache, the Go module and build caches) live under ${SEXTANT_CACHE:-~/.cache/sextant}
# so a second run on the same machine rebuilds little. .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test

cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}"
export CCACHE_DIR="$cache/ccache"
# Paths below the checkout are hashed relative to it, so a clone in another folder (as CI makes)
# reuses what an earlier run compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
mkdir -p "$CCACHE_DIR"
jobs=$(nproc)
# Each stage says when it starts, so a slow CI run shows where its time went.
stage() { echo "== $* (at ${SECONDS}s)"; }

stage "fuzz targets (libFuzzer, bounded time each)"
# -O1 as libFuzzer recommends; assertions stay on; line tables are enough for its stack traces.
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
  -DSEXTANT_FUZZ=ON -DSEXTANT_WERROR=OFF -DSEXTANT_TESTS=OFF -DSEXTANT_BENCH=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target fuzz_targets
ctest --test-dir build-fuzz --output-on-failure -j "$jobs"

stage "unit and end-to-end tests under ASan + UBSan"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSEXTANT_SANITIZE=ON -DSEXTANT_BENCH=OFF \
  -DSEXTANT_INTEGRATION=OFF >/dev/null
cmake --build build-asan -j "$jobs"
# Leak checking is on: the end-to-end tests stop the daemon with SIGTERM and require exit code 0,
# which LeakSanitizer turns into a failure if shutdown leaves anything allocated.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"

if [[ -x tests/apiserver/build.sh ]]; then
  stage "building the test kube-apiserver and etcd (cached after the first run)"
  tests/apiserver/build.sh
fi

stage "build and test (warnings are errors)"
# Optimised as shipped (GCC's -O2 warnings and code generation are part of the test); -g1 keeps
# line tables for backtraces at a fraction of full debug information's compile time.
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DSEXTANT_WERROR=ON >/dev/null
cmake --build build-test -j "$jobs"
ctest --test-dir build-test --output-on-failure -j "$jobs"
