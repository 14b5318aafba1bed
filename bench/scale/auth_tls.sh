#!/usr/bin/env bash
# The production-scale HTTP rows as deployed (issue 37): --auth=kubernetes and TLS, live against the
# test API server, whose real TokenReviews and SubjectAccessReviews judge three callers
# (callers.py): a cluster-wide reader, a reader of one namespace, a caller allowed nothing but
# queues. Called by bench/scale/run.sh after its live part; alone:
#
#   SEXTANTD=build-test/cmd/sextantd/sextantd bench/scale/auth_tls.sh
#
# For each caller, at 64 and 256 connections, with and without If-None-Match: the Workload list,
# a page of 100, a Cluster Queue's details and the problems. References in the same run: nginx
# over TLS (1 worker, pinned as the daemon is) serving each caller's own bytes from files, and
# the same daemon with auth off (TLS on). Also /healthz over TLS while the list is hammered, and
# the reviews the daemon sent a second (sextant_apiserver_requests_total{verb="create"}: its only
# POSTs are reviews) against the requests it answered.
# Environment: RUNS (3), DURATION (4), PIN (1), ENVELOPE (0), OUT (build-scale, or build-envelope
# with ENVELOPE=1), SEXTANTD; the cluster is
# generated and loaded as run.sh does it (kept in OUT between runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
# shellcheck source=bench/scale/bench_lib.sh
source bench/scale/bench_lib.sh
bench_setup
SEXTANTD=${SEXTANTD:?name the sextantd binary to measure}
# shellcheck source=bench/scale/test_cluster.sh
source bench/scale/test_cluster.sh
start_auth_bench auth-tls
CALLERS=(wide team queues)
declare -A CALLER_TITLE=([wide]="cluster-wide reader" [team]="reader of $TEAM" [queues]="queues only")
ADMIN_TOKEN=$(cat "$ADMIN_TOKEN_FILE")

NAMES=(workloads page100 cq problems)
PORT=18320
PROBE_PORT=18321
DAEMON_URL=https://127.0.0.1:$PORT
echo '{"categories": {"kueue-workloads": {"enabled": true}}}' >"$HERE/settings.json"
# 256 connections from one address is more than the default share of one client (half of
# --max-connections, 256); nginx caps nothing per client: the daemon is let take them all.
start_daemon() {  # log [flag...]: the daemon over TLS, ready, on the server's CPU; sets DAEMON_PID
  local log=$1
  shift
  rm -f "$HERE/sextant-ca.crt"
  "$SEXTANTD" --kubeconfig "$KUBECONFIG_TOKEN" --listen 127.0.0.1:$PORT --probe-listen 127.0.0.1:$PROBE_PORT \
    --settings-file "$HERE/settings.json" --tls=self-signed --tls-ca-file "$HERE/sextant-ca.crt" \
    --max-connections 1024 --max-client-connections 512 "$@" >"$log" 2>&1 &
  DAEMON_PID=$!
  PIDS+=("$DAEMON_PID")
  START=$(now_ms)
  echo "ready in $(wait_ready $PROBE_PORT) ms"
  ((${#SERVER_CPU[@]} == 0)) || taskset -a -p -c 0 "$DAEMON_PID" >/dev/null
}
as() { echo "Authorization: Bearer $(cat "$HERE/$1.token")"; }
reviews_sent() {
  curl -s --cacert "$HERE/sextant-ca.crt" -H "$(as_admin)" "$DAEMON_URL/metrics" |
    awk '/^sextant_apiserver_requests_total\{.*verb="create"/ {sum += $2} END {printf "%d", sum}'
}
requests_answered() {
  curl -s --cacert "$HERE/sextant-ca.crt" -H "$(as_admin)" "$DAEMON_URL/metrics" |
    awk '/^sextant_http_requests_total\{/ {sum += $2} END {printf "%d", sum}'
}
as_admin() { echo "Authorization: Bearer $ADMIN_TOKEN"; }

echo "== the daemon with --auth=kubernetes and --tls=self-signed"
start_daemon "$HERE/auth.log" --auth=kubernetes
# Every Workload watched and listed before the bodies are taken (readiness waits for the sync).
WWW=$HERE/www
for caller in "${CALLERS[@]}"; do
  mkdir -p "$WWW/$caller"
  for name in "${NAMES[@]}"; do
    code=$(curl -s --cacert "$HERE/sextant-ca.crt" -H "$(as "$caller")" -o "$WWW/$caller/$name.json" \
      -w '%{http_code}' "$DAEMON_URL${TARGET[$name]}")
    printf '%-8s %-10s %s %8d bytes\n' "$caller" "$name" "$code" "$(stat -c %s "$WWW/$caller/$name.json")"
  done
done

echo "== nginx over TLS (1 worker), each caller's bytes from files"
NGINX_PORT=18323
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$HERE/nginx.key" -out "$HERE/nginx.crt" 2>/dev/null
start_nginx "$HERE" "$WWW" "127.0.0.1:$NGINX_PORT ssl" "ssl_certificate $HERE/nginx.crt; ssl_certificate_key $HERE/nginx.key;"

ROWS=$HERE/rows.txt
: >"$ROWS"
row() {  # daemon-label caller name conditional connections -> one line of rows.txt and the table
  local daemon=$1 caller=$2 name=$3 conditional=$4 connections=$5
  local url=$DAEMON_URL${TARGET[$name]} nginx_url=https://127.0.0.1:$NGINX_PORT/$caller/$name.json
  local auth="" header="" nginx_header="" curl_args=(--cacert "$HERE/sextant-ca.crt")
  [[ $daemon == auth ]] && auth=$(as "$caller") && curl_args+=(-H "$auth")
  if [[ $conditional == yes ]]; then
    header="If-None-Match: $(etag_of "$url" "${curl_args[@]}")"
    nginx_header="If-None-Match: $(etag_of "$nginx_url" -k)"
  fi
  local rps p50 p99 nrps np50 np99
  read -r rps p50 p99 < <(run_wrk "sextantd ($daemon) $caller $name" "$url" "$connections" "$auth" "$header")
  read -r nrps np50 np99 < <(run_wrk "nginx $caller $name" "$nginx_url" "$connections" "$nginx_header")
  echo "$daemon $caller $name $conditional $connections $rps $p50 $p99 $nrps $np50 $np99" >>"$ROWS"
  printf '%-5s %-7s %-10s %-4s %4s | %9s %8s %8s | %9s %8s %8s | %4.0f%%\n' "$daemon" "$caller" "$name" \
    "$conditional" "$connections" "$rps" "$p50" "$p99" "$nrps" "$np50" "$np99" \
    "$(python3 -c "print(100*float('$rps')/max(1e-9,float('$nrps')))")"
}

echo "== HTTP over TLS (wrk -t2, ${DURATION} s each, median of $RUNS; times in ms)"
printf '%-5s %-7s %-10s %-4s %4s | %9s %8s %8s | %9s %8s %8s | %5s\n' auth caller endpoint 304 conns \
  "sextantd/s" p50 p99 "nginx/s" p50 p99 ratio
REVIEWS_BEFORE=$(reviews_sent)
ANSWERED_BEFORE=$(requests_answered)
PHASE_START=$(now_ms)
for caller in "${CALLERS[@]}"; do
  for name in "${NAMES[@]}"; do
    for conditional in no yes; do
      for connections in 64 256; do row auth "$caller" "$name" "$conditional" "$connections"; done
    done
  done
done
PHASE_SECONDS=$(python3 -c "print(($(now_ms) - $PHASE_START) / 1000)")
REVIEWS=$(($(reviews_sent) - REVIEWS_BEFORE))
ANSWERED=$(($(requests_answered) - ANSWERED_BEFORE))
echo "reviews sent: $REVIEWS in ${PHASE_SECONDS} s for $ANSWERED answers" | tee "$HERE/reviews.txt"

echo "== /healthz over TLS while the reader of $TEAM's list is hammered (256 connections)"
"${CLIENT_CPU[@]}" wrk -t1 -c256 -d"$((DURATION + 2))s" -H "$(as team)" "$DAEMON_URL${TARGET[workloads]}" \
  >/dev/null 2>&1 &
HAMMER=$!
sleep 1
read -r _ HEALTH_P50 HEALTH_P99 < <(wrk_once "healthz under load" "$DAEMON_URL/healthz" 1)
# The kubelet's probe: plain HTTP on --probe-listen, answered by a thread of its own.
read -r _ PROBE_P50 PROBE_P99 < <(wrk_once "probe-port healthz under load" "http://127.0.0.1:$PROBE_PORT/healthz" 1)
wait "$HAMMER" || true
echo "healthz on the API port (TLS) p50 $HEALTH_P50, p99 $HEALTH_P99; on the probe port p50 $PROBE_P50, p99 $PROBE_P99" |
  tee "$HERE/healthz.txt"
AUTH_RSS=$(rss_kb "$DAEMON_PID")
kill "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true

echo "== the same daemon with auth off (TLS on): the cluster-wide caller's bytes"
start_daemon "$HERE/open.log"
for name in "${NAMES[@]}"; do
  for conditional in no yes; do
    for connections in 64 256; do row open wide "$name" "$conditional" "$connections"; done
  done
done
kill "$DAEMON_PID"

echo "== summary (auth and TLS; $(date -u +%FT%TZ), $(nproc) cores)"
python3 - "$ROWS" "$REVIEWS" "$PHASE_SECONDS" "$ANSWERED" "$HEALTH_P99" "$AUTH_RSS" "$PROBE_P99" <<'PY'
import sys
rows_file, reviews, seconds, answered, health_p99, rss, probe_p99 = sys.argv[1:]
def ms(text):  # wrk's figures carry units
    for unit, scale in (("us", 1e-3), ("ms", 1.0), ("s", 1e3)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float(text)
health_p99 = ms(health_p99)
rows = {}
for line in open(rows_file):
    daemon, caller, name, conditional, conns, *figures = line.split()
    rows[(daemon, caller, name, conditional, int(conns))] = [float(x) for x in figures]
missed = []
for key, (rps, p50, p99, nrps, np50, np99) in rows.items():
    if rps < 0.5 * nrps:
        missed.append(f"{' '.join(map(str, key))}: {100 * rps / nrps:.0f}% of nginx over TLS (target >= 50%)")
    daemon, caller, name, conditional, conns = key
    if conns == 256 and conditional == "yes" and p99 >= 5:
        missed.append(f"{' '.join(map(str, key))}: 304 p99 {p99} ms (target < 5)")
    if conns == 256 and name == "page100" and conditional == "no" and p99 >= 20:
        missed.append(f"{' '.join(map(str, key))}: page p99 {p99} ms (target < 20)")
# The reader of one namespace against the cluster-wide caller's page of 100: answers of the same
# size (her whole list is a namespace's 100 Workloads), so what differs is the cut.
for name in ("workloads", "page100"):
    for conns in (64, 256):
        wide, team = rows.get(("auth", "wide", "page100", "no", conns)), rows.get(("auth", "team", name, "no", conns))
        if wide and team:
            share = 100 * team[0] / wide[0]
            print(f"reader of one namespace, {name}, at {conns} connections: {share:.0f}% of the cluster-wide "
                  f"caller's page of 100 (target >= 50%)")
            if share < 50:
                missed.append(f"one-namespace {name} at {conns}: {share:.0f}% of the cluster-wide caller's page")
print(f"reviews sent: {int(reviews) / float(seconds):.2f}/s while answering {int(answered) / float(seconds):.0f}/s")
probe_p99 = ms(probe_p99)
print(f"healthz p99 under load: {health_p99:.2f} ms on the API port (TLS), {probe_p99:.2f} ms on the probe port "
      f"(target < 10)")
if min(health_p99, probe_p99) >= 10:
    missed.append(f"healthz p99 {health_p99:.2f} ms (API port), {probe_p99:.2f} ms (probe port)")
print(f"RSS with auth on after the runs: {rss} kB")
print("targets missed: " + ("none" if not missed else "\n  " + "\n  ".join(missed)))
PY
