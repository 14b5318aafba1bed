# shellcheck shell=bash
# Time to ready, live, against its references on the same test API server, sourced by run.sh and
# ready.sh. Each of RUNS runs takes them in turn, so that all meet the server in the same state
# (at the envelope its pace moved by 40 s between runs, with its 15 GB Go heap):
#   floor (json)      the server alone streaming every kind the informer reads to a reader that
#                     parses nothing, everything as JSON, as the daemon asks (list_floor.py);
#   floor (protobuf)  the same with the built-in kinds (Pods, Nodes, DRA) as protobuf, as
#                     client-go's generated clients ask; CRDs are JSON either way;
#   client-go         the shared-informer program (informer/) as client-go defaults: protobuf;
#   client-go (json)  the same program reading JSON, as the daemon does;
#   sextantd          the daemon, started with SETTINGS, until /readyz answers 200.
# The two floors and the two client-go runs say how much of a start is the API server encoding
# JSON rather than protobuf, which no reader of JSON can win back.
# Needs OUT, RUNS, SEXTANTD, CACHE, TC_DIR, KUBECONFIG_TOKEN, PIDS and bench_lib.sh. Leaves the
# last daemon running as LIVE_PID on LIVE_PORT, and sets LIVE_READY_MS, LIVE_READY_CPU_MS,
# LIVE_RSS, GO_SYNC, GO_RSS, GO_JSON_SYNC, FLOOR_S and FLOOR_PROTOBUF_S (medians of RUNS).
ready_turns() {
  LIVE_PORT=${LIVE_PORT:-18312}
  # As issue 11 measured it: with the kueue-workloads category on, so the Workloads are watched
  # from the start (off, they are listed only once a page asks for them).
  echo '{"categories": {"kueue-workloads": {"enabled": true}}}' >"$OUT/settings.json"
  : >"$OUT/live-runs.txt"
  : >"$OUT/go-runs.txt"
  : >"$OUT/go-json-runs.txt"
  : >"$OUT/floor-runs.txt"
  : >"$OUT/floor-protobuf-runs.txt"
  (cd bench/scale/informer && GOMODCACHE=$CACHE/go/mod GOCACHE=$CACHE/go/build GOTOOLCHAIN=local GOFLAGS=-mod=readonly \
     go build -o "$OUT/informer" .)
  local run ready_ms ready_cpu_ms
  for run in $(seq "$RUNS"); do
    python3 bench/scale/list_floor.py "$TC_DIR/cluster.env" --wire json | tee -a "$OUT/floor-runs.txt"
    python3 bench/scale/list_floor.py "$TC_DIR/cluster.env" --wire protobuf | tee -a "$OUT/floor-protobuf-runs.txt"
    "$OUT/informer" -kubeconfig "$KUBECONFIG_TOKEN" | tee -a "$OUT/go-runs.txt"
    "$OUT/informer" -kubeconfig "$KUBECONFIG_TOKEN" -wire json | tee -a "$OUT/go-json-runs.txt"
    START=$(now_ms)
    "$SEXTANTD" --kubeconfig "$KUBECONFIG_TOKEN" --listen 127.0.0.1:"$LIVE_PORT" --settings-file "$OUT/settings.json" \
      >"$OUT/live.log" 2>&1 &
    LIVE_PID=$!
    PIDS+=("$LIVE_PID")
    ready_ms=$(wait_ready "$LIVE_PORT")
    ready_cpu_ms=$(cpu_ms "$LIVE_PID")
    sleep 2
    echo "$ready_ms $ready_cpu_ms $(rss_kb "$LIVE_PID")" | tee -a "$OUT/live-runs.txt"
    ((run == RUNS)) || { kill "$LIVE_PID"; wait "$LIVE_PID" 2>/dev/null || true; }
  done
  read -r LIVE_READY_MS LIVE_READY_CPU_MS LIVE_RSS < <(medians <"$OUT/live-runs.txt" 2>/dev/null)
  echo "live starts (ready ms, CPU ms to ready, RSS kB): $(tr '\n' ';' <"$OUT/live-runs.txt")"
  read -r GO_SYNC GO_RSS < <(sed -n 's/.*synced_seconds=\([0-9.]*\).*rss_kb=\([0-9]*\).*/\1 \2/p' "$OUT/go-runs.txt" | medians)
  GO_JSON_SYNC=$(sed -n 's/.*synced_seconds=\([0-9.]*\).*/\1/p' "$OUT/go-json-runs.txt" | medians)
  FLOOR_S=$(sed -n 's/.*floor_seconds=\([0-9.]*\).*/\1/p' "$OUT/floor-runs.txt" | medians)
  FLOOR_PROTOBUF_S=$(sed -n 's/.*floor_seconds=\([0-9.]*\).*/\1/p' "$OUT/floor-protobuf-runs.txt" | medians)
  echo "medians of $RUNS: server floor ${FLOOR_S} s as JSON, ${FLOOR_PROTOBUF_S} s with protobuf;" \
    "client-go ${GO_SYNC} s (protobuf, RSS ${GO_RSS} kB), ${GO_JSON_SYNC} s reading JSON; daemon ${LIVE_READY_MS} ms (JSON)"
}
