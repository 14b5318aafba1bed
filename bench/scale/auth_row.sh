#!/usr/bin/env bash
# Rows of the auth and TLS benchmark (auth_tls.sh), for one or more daemon builds in turns, and
# where the time goes: [ENVELOPE=1] [RUNS=3] [DURATION=4] [PERF=1] bench/scale/auth_row.sh \
#   ROW[,ROW...] SEXTANTD...
# ROW: CALLER/ENDPOINT/CONNECTIONS/CONDITIONAL, as team/workloads/256/no. CALLER: wide, team or
# queues (callers.py); ENDPOINT: workloads, page100, cq or problems; CONDITIONAL: yes
# (If-None-Match) or no. Every build runs at once on a port of its own, with --auth=kubernetes and
# TLS, pinned to CPU 0 as nginx is (wrk on CPU 1). Each run of a row against a build first warms
# the caller's decisions (3 s, not counted: after a pause they have ended and are asked again),
# then wrk runs the row against it; then nginx over TLS serving the same bytes. Medians of RUNS.
# PERF=1: then a profile of the first build under each row's load (perf record, 499 Hz), its
# report by shared object and by symbol in OUT/auth-row/perf-<row>-*.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
(($# >= 2)) || { sed -n 2,4p "$0"; exit 2; }
IFS=, read -r -a ROWS <<<"$1"
shift
# shellcheck source=bench/scale/bench_lib.sh
source bench/scale/bench_lib.sh
bench_setup
# shellcheck source=bench/scale/test_cluster.sh
source bench/scale/test_cluster.sh
start_auth_bench auth-row
echo '{"categories": {"kueue-workloads": {"enabled": true}}}' >"$HERE/settings.json"

DAEMONS=("$@") BASES=() CAS=()
port=18330
for daemon in "$@"; do
  "${SERVER_CPU[@]}" "$daemon" --kubeconfig "$KUBECONFIG_TOKEN" --listen 127.0.0.1:$port \
    --probe-listen 127.0.0.1:$((port + 1)) --settings-file "$HERE/settings.json" --tls=self-signed \
    --tls-ca-file "$HERE/ca-$port.crt" --max-connections 1024 --max-client-connections 512 --auth=kubernetes \
    >"$HERE/daemon-$port.log" 2>&1 &
  PIDS+=("$!")
  START=$(now_ms)
  echo "$daemon: ready in $(wait_ready $((port + 1))) ms (port $port)"
  BASES+=("https://127.0.0.1:$port") CAS+=("$HERE/ca-$port.crt")
  port=$((port + 2))
done
DAEMON_PIDS=("${PIDS[@]:1}")
mkdir -p "$HERE/www"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$HERE/nginx.key" -out "$HERE/nginx.crt" 2>/dev/null
start_nginx "$HERE" "$HERE/www" "127.0.0.1:18329 ssl" "ssl_certificate $HERE/nginx.crt; ssl_certificate_key $HERE/nginx.key;"

# The row's If-None-Match header for `url` ([curl args...]), or nothing.
header_for() {
  [[ $CONDITIONAL == yes ]] || return 0
  echo "If-None-Match: $(etag_of "$@")"
}
for ROW in "${ROWS[@]}"; do
  IFS=/ read -r CALLER NAME CONNECTIONS CONDITIONAL <<<"$ROW"
  PATH_=${TARGET[$NAME]:?endpoint: workloads, page100, cq or problems}
  AUTH="Authorization: Bearer $(cat "$HERE/$CALLER.token")"
  mkdir -p "$HERE/www/$CALLER"
  curl -s --cacert "${CAS[0]}" -H "$AUTH" -o "$HERE/www/$CALLER/$NAME.json" "${BASES[0]}$PATH_"
  NGINX_URL=https://127.0.0.1:18329/$CALLER/$NAME.json
  declare -A RESULTS=()
  for run in $(seq "$RUNS"); do
    for i in "${!BASES[@]}"; do
      header=$(header_for "${BASES[$i]}$PATH_" --cacert "${CAS[$i]}" -H "$AUTH")
      RUNS=1 DURATION=3 run_wrk warm "${BASES[$i]}$PATH_" "$CONNECTIONS" "$AUTH" "$header" >/dev/null
      RESULTS[$i]+="$(wrk_once "build $i" "${BASES[$i]}$PATH_" "$CONNECTIONS" "$AUTH" "$header")"$'\n'
    done
    RESULTS[nginx]+="$(wrk_once nginx "$NGINX_URL" "$CONNECTIONS" "$(header_for "$NGINX_URL" -k)")"$'\n'
  done
  echo "== $ROW ($(stat -c %s "$HERE/www/$CALLER/$NAME.json") bytes): median of $RUNS runs of ${DURATION} s"
  printf '%-40s | %9s %8s %8s\n' build "answers/s" "p50 ms" "p99 ms"
  for i in "${!BASES[@]}"; do
    # shellcheck disable=SC2046  # the three medians, one word each
    printf '%-40s | %9s %8s %8s\n' "${DAEMONS[$i]}" $(printf '%s' "${RESULTS[$i]}" | medians 2>/dev/null)
  done
  # shellcheck disable=SC2046
  printf '%-40s | %9s %8s %8s\n' "nginx over TLS" $(printf '%s' "${RESULTS[nginx]}" | medians 2>/dev/null)
  unset RESULTS

  if [[ "${PERF:-0}" == 1 ]]; then
    PROFILE=$HERE/perf-${ROW//\//-}
    header=$(header_for "${BASES[0]}$PATH_" --cacert "${CAS[0]}" -H "$AUTH")
    RUNS=1 DURATION=3 run_wrk warm "${BASES[0]}$PATH_" "$CONNECTIONS" "$AUTH" "$header" >/dev/null
    PERF_SECONDS=$((DURATION * 3))
    RUNS=1 DURATION=$PERF_SECONDS run_wrk profiled "${BASES[0]}$PATH_" "$CONNECTIONS" "$AUTH" "$header" \
      >"$PROFILE-rate.txt" &
    WRK=$!
    sleep 1
    perf record -F 499 -g -o "$PROFILE.data" -p "${DAEMON_PIDS[0]}" -- sleep $((PERF_SECONDS - 2)) 2>/dev/null
    wait "$WRK"
    echo "profiled at $(cut -d' ' -f1 "$PROFILE-rate.txt") answers a second"
    perf report -i "$PROFILE.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^#' | grep . |
      sed 's/  */ /g' | head -8 | tee "$PROFILE-dso.txt" || true
    perf report -i "$PROFILE.data" --no-children --sort dso,symbol --stdio -g none 2>/dev/null | grep -v '^#' |
      grep . | sed 's/  */ /g' | cut -c1-160 | head -60 >"$PROFILE-symbols.txt" || true
    echo "symbols: $PROFILE-symbols.txt"
  fi
done
