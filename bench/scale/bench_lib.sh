# shellcheck shell=bash
# What the benchmarks under bench/scale share, sourced: process figures, medians of runs, and wrk
# runs. wrk runs need RUNS, DURATION, WRK_OUT (every run's whole output is appended there) and
# CLIENT_CPU (the taskset prefix wrk runs under; empty: not pinned).

# What every run under bench/scale starts with: OUT (build-scale, or build-envelope with
# ENVELOPE=1), RUNS, DURATION and CACHE (SEXTANT_CACHE: where the Go builds are kept); the server
# (sextantd or nginx) pinned to CPU 0 and wrk to CPU 1 (PIN=0, or one core: not pinned); and
# every pid added to PIDS killed on exit.
bench_setup() {
  OUT=${OUT:-$ROOT/build-$([[ "${ENVELOPE:-0}" == 1 ]] && echo envelope || echo scale)}
  DURATION=${DURATION:-4}
  RUNS=${RUNS:-3}
  CACHE=${SEXTANT_CACHE:-$HOME/.cache/sextant}
  SERVER_CPU=() CLIENT_CPU=()
  if [[ "${PIN:-1}" == 1 && $(nproc) -ge 2 ]]; then
    SERVER_CPU=(taskset -c 0) CLIENT_CPU=(taskset -c 1)
  fi
  PIDS=()
  trap kill_started EXIT
}
kill_started() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
now_ms() { date +%s%3N; }
wait_ready() {  # port -> ms until /readyz 200 (from $START)
  until [[ "$(curl -s -o /dev/null -w '%{http_code}' "127.0.0.1:$1/readyz")" == 200 ]]; do sleep 0.05; done
  echo $(($(now_ms) - START))
}
cpu_ms() { awk -v tick="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print int(($12 + $13) * 1000 / tick) }' "/proc/$1/stat"; }
# Lines of numbers (wrk's figures may carry units: 76.00us, 1.78ms, 1.20s) -> the median of each
# column, times in ms; a column's range goes to stderr.
medians() {
  python3 -c '
import statistics, sys
def value(text):
    for unit, scale in (("us", 1e-3), ("ms", 1.0), ("s", 1e3)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float(text)
rows = [[value(x) for x in line.split()] for line in sys.stdin if line.strip()]
columns = list(zip(*rows))
print(" ".join(f"{statistics.median(c):.2f}" for c in columns))
print("  range: " + " | ".join(f"{min(c):.2f}-{max(c):.2f}" for c in columns), file=sys.stderr)'
}

run_wrk() {  # label url connections [header...] -> "rps p50 p99", the median of RUNS runs (ms)
  local run
  for run in $(seq "$RUNS"); do wrk_once "$@"; done | medians 2>>"$WRK_OUT"
}
wrk_once() {  # label url connections [header...] -> "rps p50 p99" of one run (empty headers skipped)
  local label=$1 url=$2 connections=$3
  shift 3
  local threads=2
  ((connections < 2)) && threads=1
  local args=(-t"$threads" -c"$connections" -d"${DURATION}s" --latency)
  local header shown=()
  for header in "$@"; do
    [[ -n "$header" ]] || continue
    args+=(-H "$header")
    # A bearer token is a secret even in a benchmark's log.
    [[ "$header" == Authorization:* ]] && shown+=("Authorization: Bearer ...") || shown+=("$header")
  done
  local text
  text=$("${CLIENT_CPU[@]}" wrk "${args[@]}" "$url" 2>&1)
  echo "## $label c=$connections ${shown[*]}" >>"$WRK_OUT"
  echo "$text" >>"$WRK_OUT"
  local rps p50 p99
  rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$text")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$text")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$text")
  echo "$rps $p50 $p99"
}
# url [curl argument...] -> the answer's ETag
etag_of() {
  local url=$1
  shift
  curl -s -D- -o /dev/null "$@" "$url" | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r'
}
# The cluster's files in $OUT/cluster, generated once: the production-scale cluster (times SCALE),
# or with ENVELOPE=1 the scalability envelope.
generate_cluster() {
  [[ ! -d "$OUT/cluster" ]] || return 0
  if [[ "${ENVELOPE:-0}" == 1 ]]; then
    python3 bench/scale/gen_cluster.py "$OUT/cluster" --envelope
  else
    python3 bench/scale/gen_cluster.py "$OUT/cluster" --scale "${SCALE:-1}"
  fi
}
# dir www listen [directive...] -> starts nginx on the server's CPU, as the reference each
# benchmark sets the daemon against: 1 worker, keep-alive, the bodies in www served as files with
# ETags; its conf, pid and errors in dir; the directives (TLS) added to its server. Adds its pid
# to PIDS.
start_nginx() {
  local dir=$1 www=$2 listen=$3
  shift 3
  cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log;
events { worker_connections 2048; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 10000000; keepalive_timeout 60;
  server { listen $listen; root $www; default_type application/json; etag on; $* }
}
CONF
  "${SERVER_CPU[@]}" nginx -c "$dir/nginx.conf" &
  PIDS+=("$!")
  sleep 0.5
}
