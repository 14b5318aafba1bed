#!/usr/bin/env bash
# The long run of issue 35 (not in CI): a real sextantd behind the fault proxy, watching a test
# cluster with kube-scheduler, kube-controller-manager and Kueue, for MINUTES of churn, eight
# polling front-ends, a /metrics scrape every 15 s and the faults of rows 1-4 every FAULT_EVERY
# seconds, sampled every 10 s. Then summary.txt (flat or not, converged or not) and soak.png.
# The run itself is the hidden integration test case "[.soak]" (tests/integration/soak_test.cpp),
# so it uses the same harness as the fault tests. See bench/soak/README.md.
#
#   bench/soak/run.sh                          # 30 minutes, a fault every 180 s
#   MINUTES=4 FAULT_EVERY=40 bench/soak/run.sh # a short check of the script itself
#
# Knobs: MINUTES (30), FAULT_EVERY (180 s), BUILD_DIR (./build-test), OUT (build-soak/),
# CHURN_PER_SECOND (20), FRONTENDS (8), POLL_MS (2000: one round of pages per front-end),
# POPULATION (200: Pods and Jobs the churn keeps at most), WARMUP_MINUTES (5, at most a quarter
# of the run), RSS_DRIFT_PCT (5: the RSS drift per 10 minutes still called flat, in % of the
# median), FD_SLACK (10), ANALYSE_ONLY=1 (judge and plot OUT's samples again, without a run).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
MINUTES="${MINUTES:-30}"
FAULT_EVERY="${FAULT_EVERY:-180}"
BUILD_DIR="$(realpath -m "${BUILD_DIR:-./build-test}")"
OUT="$(realpath -m "${OUT:-build-soak}")"
tests="$BUILD_DIR/tests/integration/sextant_integration_tests"

if [[ "${ANALYSE_ONLY:-0}" != 1 ]]; then
  for needed in "$tests" "$BUILD_DIR/cmd/sextantd/sextantd" tests/apiserver/bin/testcluster tests/faultproxy/bin/faultproxy \
      tests/controllers/bin/kueue; do
    if [[ ! -e $needed ]]; then
      echo "soak: $needed is missing. Build first: cmake --build $BUILD_DIR --target sextantd sextant_integration_tests," >&2
      echo "      and the Go harness: tests/integration/build_testcluster.sh and tests/integration/build_controllers.sh kueue" >&2
      exit 2
    fi
  done
  rm -rf "$OUT" && mkdir -p "$OUT"
  echo "soak: $MINUTES minutes, a fault every $FAULT_EVERY s, output in $OUT (started $(date -u +%H:%M:%SZ))"
  status=0
  ( cd "$(dirname "$tests")" &&
    SOAK_MINUTES="$MINUTES" SOAK_FAULT_EVERY="$FAULT_EVERY" SOAK_OUT="$OUT" \
    SOAK_CHURN_PER_SECOND="${CHURN_PER_SECOND:-20}" SOAK_FRONTENDS="${FRONTENDS:-8}" SOAK_POLL_MS="${POLL_MS:-2000}" \
    SOAK_POPULATION="${POPULATION:-200}" \
    "$tests" "[.soak]" --durations yes ) > "$OUT/test.log" 2>&1 || status=$?
  echo "$status" > "$OUT/test.status"
  echo "soak: the run ended with status $status ($(date -u +%H:%M:%SZ)); its output is in $OUT/test.log"
fi

[[ -s $OUT/samples.csv ]] || { echo "soak: no samples in $OUT/samples.csv" >&2; exit 1; }

MINUTES="$MINUTES" WARMUP_MINUTES="${WARMUP_MINUTES:-5}" RSS_DRIFT_PCT="${RSS_DRIFT_PCT:-5}" \
  FD_SLACK="${FD_SLACK:-10}" python3 "$root/bench/soak/summarise.py" "$OUT"
cat "$OUT/summary.txt"

if command -v gnuplot >/dev/null 2>&1; then
  gnuplot "$OUT/soak.gp" && echo "soak: plot in $OUT/soak.png"
else
  echo "soak: gnuplot is not installed, so no plot (apt-get install -y gnuplot-nox; then ANALYSE_ONLY=1 $0)"
fi
grep -q '^verdict=PASS' "$OUT/summary.txt"
