#!/usr/bin/env bash
# Installs what the tests need and runs every test through ctest, in two C++ configurations:
#   1. clang with AddressSanitizer + UndefinedBehaviorSanitizer + libFuzzer's coverage: the unit
#      and end-to-end tests, and each fuzz target for a bounded time over its seed corpus;
#   2. GCC (the shipped compiler) as the daemon ships: Release, each file compiled on its own as
#      scripts/run-demo.sh and the Dockerfile build it, warnings as errors, every header compiled
#      alone too. Then the README's first command itself (run-demo.sh --smoke, whose build finds
#      every object in ccache), the integration tests, which start a real kube-apiserver and etcd
#      (tests/apiserver/) and the operators' own controllers (tests/controllers/), all built from
#      pinned Go modules, and the contract, chart and monitoring checks (OpenAPI validator,
#      Schemathesis, TypeScript, Helm and kubeconform, promtool).
# The Go builds are the longest part of a cold run. They start first, in the background and
# niced, so that they take the CPU the C++ builds leave idle (links, test runs, downloads);
# configuration 2's ctest waits for the ones each test needs. The last line counts the tests of
# both ctest runs.
# Caches (ccache, the Go module and build caches) live under ${SEXTANT_CACHE:-~/.cache/sextant}
# so a second run on the same machine rebuilds little. .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
# Formatting first: it takes seconds, and a tree clang-format 14 would rewrite fails here.
scripts/check-format.sh
# No two section folders share a run of six identical lines: what they need alike is the toolkit's.
python3 tests/guards/section_duplicates.py

cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}"
export CCACHE_DIR="$cache/ccache"
# Paths below the checkout are hashed relative to it, so a clone in another folder (as CI makes)
# reuses what an earlier run compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
mkdir -p "$CCACHE_DIR" build-logs
jobs=$(nproc)
# Each stage says when it starts, so a slow CI run shows where its time went.
stage() { echo "== $* (at ${SECONDS}s)"; }

stage "Go builds started in the background: test API server, then Kueue, JobSet, KubeRay, KServe, the GPU Operator, then Helm and kubeconform (log: build-logs/go.log)"
go_log=build-logs/go.log
# Its own process group (setsid), so that a failed run can stop it whole, Go's children included.
# Exit 77 is a build script's "Go is not installed": ctest then skips the integration tests.
setsid nice -n 10 bash -c '
  started=$(date +%s)
  tests/integration/build_testcluster.sh && tests/integration/build_controllers.sh && tests/helm/build.sh
  status=$?
  echo "go builds: exit $status after $(($(date +%s) - started)) s"
  ((status == 0 || status == 77))' >"$go_log" 2>&1 &
go_pid=$!
trap 'kill -- "-$go_pid" 2>/dev/null || true' EXIT

stage "clang, ASan + UBSan + libFuzzer: unit and end-to-end tests, fuzz targets"
# -O1 as libFuzzer recommends; assertions stay on; line tables are enough for stack traces.
# The libraries compile as unity batches (SEXTANT_UNITY): shared headers and templates once a batch.
CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
  -DSEXTANT_SANITIZE=ON -DSEXTANT_FUZZ=ON -DSEXTANT_UNITY=ON -DSEXTANT_BENCH=OFF -DSEXTANT_INTEGRATION=OFF >/dev/null
cmake --build build-asan -j "$jobs"
# Leak checking is on: the end-to-end tests stop the daemon with SIGTERM and require exit code 0,
# which LeakSanitizer turns into a failure if shutdown leaves anything allocated.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" | tee build-logs/ctest-asan.txt

stage "GCC as shipped (Release, no unity batches, warnings are errors): build, every header alone too"
# The configuration scripts/run-demo.sh and the Dockerfile build, plus the tests: a file that
# leans on an include another file of its unity batch brought compiles here as it would there.
# The unit tests ran above under the sanitizers; this build drives the whole daemon through the
# integration tests. The tests' own code stays at -O0 (tests/CMakeLists.txt).
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEXTANT_WERROR=ON -DSEXTANT_UNITY=OFF \
  -DSEXTANT_HEADER_CHECK=ON -DSEXTANT_BUILD_UNIT_TESTS=OFF >/dev/null
cmake --build build-test -j "$jobs"

stage "The README's first command: scripts/run-demo.sh --smoke (its build: ccache hits of the one above)"
scripts/run-demo.sh --smoke

stage "GCC as shipped: integration tests; Dockerfile, OpenAPI, chart and monitoring checks"
# Its first steps wait for the Go builds under way (they take turns on a lock); the tests that
# need no operator controller run while those finish.
ctest --test-dir build-test --output-on-failure -j "$jobs" | tee build-logs/ctest-gcc.txt
wait "$go_pid" || echo "test.sh: the early Go build failed, and ctest's own build steps then passed (build-logs/go.log)"
trap - EXIT
grep -E '^(build\.sh|go builds):' "$go_log" || true

# One closing line for both ctest runs (each printed "N% tests passed, F tests failed out of T").
stage "done"
awk '/tests passed, .* tests failed out of/ { failed += $4; total += $NF }
     END { printf "tests: %d passed, %d failed\n", total - failed, failed }' build-logs/ctest-asan.txt build-logs/ctest-gcc.txt
