#!/usr/bin/env bash
# The production-scale benchmark (issue 11), one command:  bench/scale/run.sh [--no-live]
#
# Generates a large cluster (gen_cluster.py), then measures, side by side with references:
#   ingest   time to /readyz 200 in snapshot mode and live (test API server), RSS after sync,
#            against the raw nlohmann and simdjson parse of the same list bodies (parse_bench)
#            and a client-go shared-informer program on the same API server (informer/);
#   HTTP     wrk at 64 and 256 keep-alive connections on /api/v1/problems, the Workload list
#            (whole, a page of 100), a Cluster Queue's details, each with and without
#            If-None-Match, against nginx (1 worker) serving the same bodies from files; and
#            /healthz latency while the list is hammered at 256 connections;
#   live     bytes per cached object per kind; CPU seconds a minute at rest and at 50 Workload
#            changes a second, with the write -> view lag; watch events applied a second in a
#            burst of 5000 writes; CPU and lag at 100 Pod status changes a second (churn.py); RSS
#            after POLL_SECONDS of 8 front-ends polling; the RSS peak while the Pods are listed
#            again after a 410 (etcd compacted, the API server restarted);
#   deployed the HTTP rows again with --auth=kubernetes and TLS, for three callers (auth_tls.sh).
# Each time to ready and each wrk row is the median of RUNS runs (3); the ranges are in OUT's logs.
# Traffic is loopback only, bounded in time (DURATION seconds per wrk run).
# HTTP runs pin the server (the daemon, or nginx) to CPU 0 and wrk to CPU 1 (PIN=0: no pinning):
# unpinned on two cores, wrk's threads and the server take turns on both, and the tails measure
# the scheduler more than the server (p99 of the same run varied 5x between runs).
# Environment: RUNS (3), DURATION (4), POLL_SECONDS (300), PIN (1), ENVELOPE (0), SCALE (1),
# LIVE_PARSE (1; 0 with ENVELOPE=1), AUTH_TLS (1), KUEUE_CRDS (default: tests/upstream/fetch.sh crds/kueue, pinned in go.mod;
# JobSet's, KubeRay's, KServe's and the GPU Operator's CRDs are always fetched that way),
# SEXTANT_CACHE (~/.cache/sextant: Go caches), OUT (build-scale).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
# ENVELOPE=1: the Kubernetes scalability envelope (gen_cluster.py --envelope: 5 000 Nodes, 150 000
# Pods, ...) in build-envelope, instead of the production-scale cluster in build-scale.
# shellcheck source=bench/scale/bench_lib.sh
source bench/scale/bench_lib.sh
bench_setup
LIVE=1
[[ "${1:-}" == "--no-live" ]] && LIVE=0
scripts/install-deps.sh --bench  # wrk, nginx, and what the build and the test API server need
mkdir -p "$OUT"

if [[ -z "${BUILD_DIR:-}" ]]; then  # BUILD_DIR: a build that has sextantd and parse_bench already
  echo "== build (Release)"
  BUILD_DIR=$OUT/build
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEXTANT_BENCH=ON >/dev/null
  cmake --build "$BUILD_DIR" -j2 --target sextantd parse_bench >/dev/null
fi
SEXTANTD=$BUILD_DIR/cmd/sextantd/sextantd
generate_cluster
du -sh "$OUT/cluster" | sed 's/^/cluster files: /'

echo "== raw parse of the same list bodies (best of 3)"
"$BUILD_DIR/bench/parse_bench" "$OUT"/cluster/*.json | tee "$OUT/parse.txt"
read -r _ _ NLOHMANN_MS SIMDJSON_MS < <(grep '^total' "$OUT/parse.txt")

echo "== the daemon with nothing to cache (its code, libraries and fixed buffers)"
mkdir -p "$OUT/empty"
"$SEXTANTD" --snapshot "$OUT/empty" --listen 127.0.0.1:18314 >"$OUT/empty.log" 2>&1 &
EMPTY_PID=$!
PIDS+=("$EMPTY_PID")
START=$(now_ms)
wait_ready 18314 >/dev/null
sleep 1
EMPTY_RSS=$(rss_kb "$EMPTY_PID")
kill "$EMPTY_PID"
echo "RSS ${EMPTY_RSS} kB"

echo "== snapshot mode (median of $RUNS starts)"
SNAP_PORT=18310
SNAP_PROBE_PORT=18311
: >"$OUT/snapshot-runs.txt"
for run in $(seq "$RUNS"); do
  START=$(now_ms)
  # The envelope's pods.json is 575 MB, past the default --max-snapshot-file-bytes (256 MiB).
  "$SEXTANTD" --snapshot "$OUT/cluster" --max-snapshot-file-bytes 1073741824 --listen 127.0.0.1:$SNAP_PORT \
    --probe-listen 127.0.0.1:$SNAP_PROBE_PORT >"$OUT/snapshot.log" 2>&1 &
  SNAP_PID=$!
  PIDS+=("$SNAP_PID")
  ready_ms=$(wait_ready $SNAP_PORT)
  sleep 1
  echo "$ready_ms $(rss_kb "$SNAP_PID")" >>"$OUT/snapshot-runs.txt"
  ((run == RUNS)) || { kill "$SNAP_PID"; wait "$SNAP_PID" 2>/dev/null || true; }
done
read -r SNAP_READY_MS SNAP_RSS < <(medians <"$OUT/snapshot-runs.txt" 2>/dev/null)
echo "ready in ${SNAP_READY_MS} ms, RSS ${SNAP_RSS} kB (runs, ms and kB: $(tr '\n' ';' <"$OUT/snapshot-runs.txt"))"

# The last start serves the HTTP runs, on the server's CPU with every thread it has.
((${#SERVER_CPU[@]} == 0)) || taskset -a -p -c 0 "$SNAP_PID" >/dev/null

echo "== bodies for nginx"
WWW=$OUT/www
mkdir -p "$WWW"
CQ=/api/v1/kueue/clusterqueues/cq-03
declare -A TARGET=([problems]=/api/v1/problems [workloads]=/api/v1/kueue/workloads
                   [page100]="/api/v1/kueue/workloads?limit=100" [cq]=$CQ)
for name in "${!TARGET[@]}"; do
  curl -s "127.0.0.1:$SNAP_PORT${TARGET[$name]}" >"$WWW/$name.json"
  printf '%-10s %8d bytes\n' "$name" "$(stat -c %s "$WWW/$name.json")"
done
NGINX_PORT=18313  # not the snapshot daemon's probe port (18311)
start_nginx "$OUT" "$WWW" "127.0.0.1:$NGINX_PORT"

WRK_OUT=$OUT/wrk.txt
: >"$WRK_OUT"

echo "== HTTP (wrk -t2, ${DURATION} s each, median of $RUNS; times in ms; nginx: 1 worker, same bodies from files;" \
  "$( ((${#SERVER_CPU[@]})) && echo "server on CPU 0, wrk on CPU 1" || echo "not pinned"))"
printf '%-22s %5s | %10s %9s %9s | %10s %9s %9s | %6s\n' endpoint conns "sextantd/s" p50 p99 "nginx/s" p50 p99 ratio
for name in problems workloads page100 cq; do
  for conditional in no yes; do
    for connections in 64 256; do
      url="http://127.0.0.1:$SNAP_PORT${TARGET[$name]}"
      nginx_url="http://127.0.0.1:$NGINX_PORT/$name.json"
      header=""
      nginx_header=""
      if [[ $conditional == yes ]]; then
        header="If-None-Match: $(etag_of "$url")"
        nginx_header="If-None-Match: $(etag_of "$nginx_url")"
      fi
      read -r rps p50 p99 < <(run_wrk "sextantd $name" "$url" "$connections" "$header")
      read -r nrps np50 np99 < <(run_wrk "nginx $name" "$nginx_url" "$connections" "$nginx_header")
      label=$name$([[ $conditional == yes ]] && echo " (304)" || true)
      echo "## $label c=$connections: sextantd $rps $p50 $p99, nginx $nrps $np50 $np99 (medians)" >>"$WRK_OUT"
      printf '%-22s %5s | %10s %9s %9s | %10s %9s %9s | %5.0f%%\n' "$label" "$connections" "$rps" "$p50" "$p99" \
        "$nrps" "$np50" "$np99" "$(python3 -c "print(100*float('$rps')/max(1e-9,float('$nrps')))")"
    done
  done
done

echo "== /healthz while the Workload list is hammered (256 connections)"
"${CLIENT_CPU[@]}" wrk -t1 -c256 -d"$((DURATION + 2))s" "http://127.0.0.1:$SNAP_PORT/api/v1/kueue/workloads" >/dev/null 2>&1 &
HAMMER=$!
sleep 1
read -r hrps hp50 hp99 < <(wrk_once "healthz under load" "http://127.0.0.1:$SNAP_PORT/healthz" 1)
# The same probe on --probe-listen, answered by its own thread.
read -r prps pp50 pp99 < <(wrk_once "probe-port healthz under load" "http://127.0.0.1:$SNAP_PROBE_PORT/healthz" 1)
wait "$HAMMER" || true
echo "healthz on the API port p50 $hp50, p99 $hp99; on the probe port p50 $pp50, p99 $pp99"
curl -s "127.0.0.1:$SNAP_PORT/metrics" | grep -E '^sextant_event_loop_max_stall_seconds|^sextant_view_renders_total' | tee "$OUT/loop.txt"
SNAP_RSS_AFTER=$(rss_kb "$SNAP_PID")
kill "$SNAP_PID"

LIVE_READY_MS=- LIVE_READY_CPU_MS=- LIVE_NLOHMANN_MS=- LIVE_RSS=- CACHE_KB=- LIVE_RSS_POLLED=- GO_RSS=- GO_SYNC=- GO_JSON_SYNC=- FLOOR_S=- FLOOR_PROTOBUF_S=- REST_LINE=- CHURN_LINE=- BURST_LINE=- POD_CHURN_LINE=- RELIST_LINE=-
if [[ $LIVE == 1 ]]; then
  echo "== live mode (test API server)"
  # shellcheck source=bench/scale/test_cluster.sh
  source bench/scale/test_cluster.sh
  start_test_cluster
  LIVE_PORT=18312
  # shellcheck source=bench/scale/ready_turns.sh
  source bench/scale/ready_turns.sh
  ready_turns
  # What the cache holds, summed over kinds: the 1.5x bound of RSS after sync is against it.
  CACHE_KB=$(curl -s "127.0.0.1:$LIVE_PORT/metrics" |
    awk '/^sextant_cache_bytes\{/ {sum += $2} END {printf "%d", sum / 1024}')
  WORKLOADS=$(curl -s "127.0.0.1:$LIVE_PORT/metrics" |
    awk '/^sextant_cached_objects\{kind="Workload.kueue.x-k8s.io"\}/ {print $2}')
  echo "ready in ${LIVE_READY_MS} ms (${LIVE_READY_CPU_MS} ms of the daemon's CPU) with ${WORKLOADS:-0} Workloads cached, RSS ${LIVE_RSS} kB, cache ${CACHE_KB} kB"
  # What the daemon parsed: the API server's own list bodies (managedFields and all, several
  # times the generated files), parsed by the same references.
  # At the envelope the API server's whole lists (150 000 Pods with managedFields) take it past
  # this machine's 23 GB: it was OOM-killed at 21 GB there. LIVE_PARSE=0 leaves the step out.
  if [[ "${LIVE_PARSE:-$((1 - ${ENVELOPE:-0}))}" == 1 ]]; then
  echo "== raw parse of the API server's list bodies (best of 3)"
  LIVE_BODIES=$OUT/live-bodies
  mkdir -p "$LIVE_BODIES"
  for path in /api/v1/pods /api/v1/nodes /apis/resource.k8s.io/v1/resourceclaims /apis/resource.k8s.io/v1/resourceslices \
              /apis/kueue.x-k8s.io/v1beta2/workloads /apis/kueue.x-k8s.io/v1beta2/localqueues \
              /apis/kueue.x-k8s.io/v1beta2/clusterqueues /apis/jobset.x-k8s.io/v1alpha2/jobsets /apis/ray.io/v1/rayclusters \
              /apis/ray.io/v1/rayjobs /apis/ray.io/v1/rayservices /apis/serving.kserve.io/v1beta1/inferenceservices; do
    curl -sf --cacert "$CA_CRT" -H "Authorization: Bearer $(cat "$ADMIN_TOKEN_FILE")" "$SERVER$path?resourceVersion=0" \
      -o "$LIVE_BODIES/$(basename "$path").json"
  done
  "$BUILD_DIR/bench/parse_bench" "$LIVE_BODIES"/*.json >"$OUT/parse-live.txt"
  read -r _ LIVE_BODY_BYTES LIVE_NLOHMANN_MS LIVE_SIMDJSON_MS < <(grep '^total' "$OUT/parse-live.txt")
  echo "$((LIVE_BODY_BYTES / 1000000)) MB: nlohmann ${LIVE_NLOHMANN_MS} ms, simdjson DOM ${LIVE_SIMDJSON_MS} ms"
  rm -rf "$LIVE_BODIES"
  fi
  LIVE_URL=http://127.0.0.1:$LIVE_PORT
  echo "== bytes per cached object, per kind (sextant_cache_bytes / sextant_cached_objects)"
  curl -s "$LIVE_URL/metrics" | python3 -c '
import re, sys
count, held = {}, {}
for line in sys.stdin:
    m = re.match(r"sextant_(cached_objects|cache_bytes)\{kind=\"([^\"]+)\"\} (\S+)", line)
    if m:
        (count if m[1] == "cached_objects" else held)[m[2]] = float(m[3])
for kind in sorted(count, key=lambda k: -count[k]):
    if count[kind]:
        print(f"{kind:40} {count[kind]:8.0f} objects {held.get(kind, 0) / count[kind]:8.0f} bytes each")
' | tee "$OUT/bytes-per-kind.txt"
  CHURN=(python3 bench/scale/churn.py "$OUT/cluster" "$TC_DIR/cluster.env" "$LIVE_URL" "$LIVE_PID")
  echo "== CPU at rest (60 s)"
  REST_LINE=$("${CHURN[@]}" rest 60) && echo "$REST_LINE"
  echo "== 50 Workload status changes a second for 60 s (CPU, events applied, write -> view lag)"
  CHURN_LINE=$("${CHURN[@]}" churn 50 60) && echo "$CHURN_LINE"
  echo "== 100 Pod status changes a second for 60 s (CPU, events applied, write -> view lag)"
  POD_CHURN_LINE=$("${CHURN[@]}" pod-churn 100 60) && echo "$POD_CHURN_LINE"
  echo "== a burst of 5000 writes (how fast watch events are applied)"
  BURST_LINE=$("${CHURN[@]}" burst 5000) && echo "$BURST_LINE"
  echo "== ${POLL_SECONDS:-300} s of polling: 8 front-ends, each the Workload list and the problems every second"
  python3 - "$LIVE_URL" "${POLL_SECONDS:-300}" <<'PY'
import sys, threading, time, urllib.request
url, seconds = sys.argv[1], float(sys.argv[2])
deadline, answers = time.monotonic() + seconds, [0]
def poll(conditional):
    etags = {}
    while time.monotonic() < deadline:
        for path in ("/api/v1/kueue/workloads", "/api/v1/problems"):
            request = urllib.request.Request(url + path)
            if conditional and path in etags:
                request.add_header("If-None-Match", etags[path])
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    response.read()
                    etags[path] = response.headers.get("ETag", "")
            except urllib.error.HTTPError as error:  # 304
                error.read()
            answers[0] += 1
        time.sleep(1)
threads = [threading.Thread(target=poll, args=(i % 2 == 0,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(f"{answers[0]} answers")
PY
  LIVE_RSS_POLLED=$(rss_kb "$LIVE_PID")
  echo "RSS after polling: ${LIVE_RSS_POLLED} kB"
  echo "== the Pods listed again after a 410 (etcd compacted, the API server restarted): the RSS peak"
  RELIST_LINE=$("${CHURN[@]}" relist) && echo "$RELIST_LINE"
  kill "$LIVE_PID"
  # The same HTTP rows as deployed: auth and TLS on (issue 37); it starts the test API server again.
  kill "$TC_PID"
  wait "$TC_PID" 2>/dev/null || true
  if [[ "${AUTH_TLS:-1}" == 1 ]]; then  # AUTH_TLS=0: not the rows as deployed
    echo "== as deployed: --auth=kubernetes and TLS (bench/scale/auth_tls.sh)"
    SEXTANTD=$SEXTANTD OUT=$OUT ENVELOPE=${ENVELOPE:-0} bench/scale/auth_tls.sh | tee "$OUT/auth-tls.txt"
  fi
fi

echo "== summary ($(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$SNAP_READY_MS" "$NLOHMANN_MS" "$SIMDJSON_MS" "$SNAP_RSS" "$SNAP_RSS_AFTER" "$LIVE_READY_MS" "$LIVE_RSS" \
  "$GO_RSS" "$GO_SYNC" "$hp99" "$pp99" "$LIVE_RSS_POLLED" "$REST_LINE" "$CHURN_LINE" "$BURST_LINE" "$CACHE_KB" \
  "$LIVE_READY_CPU_MS" "$LIVE_NLOHMANN_MS" "$EMPTY_RSS" "$POD_CHURN_LINE" "$RELIST_LINE" "$FLOOR_S" "$FLOOR_PROTOBUF_S" \
  "$GO_JSON_SYNC" <<'PY'
import sys
(snap, nl, sj, rss, rss_after, live, live_rss, go_rss, go_sync, hp99, pp99, polled, rest, churn, burst, cache,
 live_cpu, live_nl, empty, pod_churn, relist, floor, floor_protobuf, go_json_sync) = sys.argv[1:]
def ratio(a, b):
    try: return f"{float(a) / float(b):.2f}x"
    except ValueError: return "-"
print(f"snapshot ready {snap} ms = {ratio(snap, nl)} nlohmann's parse ({nl} ms), {ratio(snap, sj)} simdjson DOM's ({sj} ms)")
print(f"live ready {live} ms = {ratio(live, live_nl)} nlohmann's parse of the API server's bodies ({live_nl} ms); "
      f"the daemon's CPU to ready {live_cpu} ms = {ratio(live_cpu, live_nl)} of it; client-go synced in {go_sync} s "
      f"(protobuf), {go_json_sync} s reading JSON as the daemon does; the server alone streamed every kind in {floor} s "
      f"as JSON, {floor_protobuf} s with the built-in kinds as protobuf (medians of runs taken in turns)")
print(f"RSS snapshot {rss} kB after load, {rss_after} kB after the HTTP runs; live {live_rss} kB; "
      f"client-go {go_rss} kB (synced in {go_sync} s): daemon/client-go = {ratio(live_rss, go_rss)}")
print(f"healthz p99 while the list is hammered: {hp99} on the API port, {pp99} on the probe port")
print(f"live RSS after sync {live_rss} kB, after polling {polled} kB; the cache holds {cache} kB: "
      f"RSS after sync = {ratio(live_rss, cache)} the cache (target <= 1.5x)")
try:
    print(f"less the empty daemon's {empty} kB: {(float(live_rss) - float(empty)) / float(cache):.2f}x the cache")
except ValueError:
    pass
print(f"at rest: {rest}; at 50 changes/s: {churn}; burst: {burst}")
print(f"at 100 Pod changes/s: {pod_churn}; the Pods relisted after a 410: {relist}")
PY
