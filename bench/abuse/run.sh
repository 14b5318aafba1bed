#!/usr/bin/env bash
# Abusive clients beside a polite one (issue 32), one command:  bench/abuse/run.sh
#
# Serves the production-scale snapshot (bench/scale/gen_cluster.py, 5 000 Workloads) and measures
# /healthz on the API port (one keep-alive client, one request at a time) and the daemon's RSS,
# first alone, then while each kind of abusive client runs (bench/abuse/abuse.py): 1 000 idle
# connections against --max-connections 256, 200 slow request heads, selector hogs, distinct
# URLs; then all of them at once. Each run is SECONDS long (20). The daemon is pinned to CPU 0
# and the clients to CPU 1 when there are two (PIN=0: not pinned).
# Environment: SECONDS_EACH (20), SCALE (1), PIN (1), OUT (build-abuse), BUILD_DIR (a Release
# build that has sextantd; else one is made in OUT/build).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=${OUT:-$ROOT/build-abuse}
SECONDS_EACH=${SECONDS_EACH:-20}
mkdir -p "$OUT"
SERVER_CPU=() CLIENT_CPU=()
if [[ "${PIN:-1}" == 1 && $(nproc) -ge 2 ]]; then
  SERVER_CPU=(taskset -c 0) CLIENT_CPU=(taskset -c 1)
fi
if [[ -z "${BUILD_DIR:-}" ]]; then
  echo "== build (Release)"
  BUILD_DIR=$OUT/build
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEXTANT_BUILD_UNIT_TESTS=OFF >/dev/null
  cmake --build "$BUILD_DIR" -j2 --target sextantd >/dev/null
fi
SEXTANTD=$BUILD_DIR/cmd/sextantd/sextantd
[[ -d "$OUT/cluster" ]] || python3 bench/scale/gen_cluster.py "$OUT/cluster" --scale "${SCALE:-1}"

PORT=18320
"${SERVER_CPU[@]}" "$SEXTANTD" --snapshot "$OUT/cluster" --listen 127.0.0.1:$PORT --max-connections 256 \
  --log-level warn >"$OUT/sextantd.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
until [[ "$(curl -s -o /dev/null -w '%{http_code}' "127.0.0.1:$PORT/readyz")" == 200 ]]; do sleep 0.1; done
curl -s -o /dev/null "127.0.0.1:$PORT/api/v1/kueue/workloads"  # the list model, as front-ends leave it
rss_mb() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$PID/status"; }
cache_mb() {
  curl -s "127.0.0.1:$PORT/metrics" | awk '/^sextant_view_cache_bytes\{tier="(views|cuts)"\}/ {s += $2} END {printf "%.1f", s / 1048576}'
}

printf '%-26s | %9s %9s %9s %8s %6s | %8s %8s %9s\n' "abusers" "p50 ms" "p99 ms" "max ms" "requests" "reconn" \
  "RSS MB" "peak MB" "cache MB"
row() {  # label kinds...
  local label=$1
  shift
  local peak=0 line attackers=""
  if (($# > 0)); then
    "${CLIENT_CPU[@]}" python3 bench/abuse/abuse.py attack $PORT "$((SECONDS_EACH + 2))" "$@" >"$OUT/attack-$label.txt" 2>&1 &
    attackers=$!
    sleep 2
  fi
  "${CLIENT_CPU[@]}" python3 bench/abuse/abuse.py probe $PORT "$SECONDS_EACH" >"$OUT/probe-$label.txt" &
  local probe=$!
  while kill -0 $probe 2>/dev/null; do
    local now
    now=$(rss_mb)
    ((now > peak)) && peak=$now
    sleep 0.5
  done
  [[ -z "$attackers" ]] || wait "$attackers" || true
  read -r p50 p99 max requests reconnects <"$OUT/probe-$label.txt"
  printf '%-26s | %9s %9s %9s %8s %6s | %8s %8s %9s\n' "$label" "$p50" "$p99" "$max" "$requests" "$reconnects" \
    "$(rss_mb)" "$peak" "$(cache_mb)"
  [[ -z "$attackers" ]] || sed 's/^/    /' "$OUT/attack-$label.txt"
}
row none
row idle idle
row slowhead slowhead
row selector selector
row distinct distinct
row all idle slowhead selector distinct
echo "== $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); daemon log: $OUT/sextantd.log"
curl -s "127.0.0.1:$PORT/metrics" | grep -E '^sextant_(http_connections_reclaimed|http_accept_failures|view_cache_(bytes|answers))'
