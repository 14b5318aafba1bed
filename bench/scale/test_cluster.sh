# shellcheck shell=bash
# The test API server the live benchmarks run against (bench/scale/run.sh, auth_tls.sh), sourced:
# start_test_cluster starts it in $OUT/testcluster with the CRDs of every kind gen_cluster.py
# writes, loads $OUT/cluster into it the first time (kept: marked in `loaded` with what was loaded),
# adds its pid to PIDS and sources its cluster.env (SERVER, CA_CRT, ADMIN_TOKEN_FILE, KUBECONFIG_*).
# Needs ROOT, OUT and PIDS set, and the cluster files generated.
start_test_cluster() {
  TESTCLUSTER=$ROOT/tests/apiserver/bin/testcluster
  [[ -x "$TESTCLUSTER" ]] || tests/apiserver/build.sh
  TC_DIR=$OUT/testcluster
  # The CRDs of every kind gen_cluster.py writes, pinned in tests/upstream/go.mod.
  CRD_DIRS=("${KUEUE_CRDS:-$("$ROOT/tests/upstream/fetch.sh" crds/kueue)}")
  OPERATOR_CRDS=$("$ROOT/tests/upstream/fetch.sh" crds/jobset crds/kuberay crds/kserve crds/gpu-operator)
  mapfile -t -O 1 CRD_DIRS <<<"$OPERATOR_CRDS"
  crd_names() {  # DIR... -> the name of every CRD in their *.yaml / *.yml files
    find "$@" -maxdepth 1 \( -name '*.yaml' -o -name '*.yml' \) -exec awk '
      /^---/ { crd = 0; meta = 0 } /^kind: CustomResourceDefinition/ { crd = 1 }
      /^metadata:/ { meta = crd; next } /^[^ ]/ { meta = 0 } meta && /^  name:/ { print $2; meta = crd = 0 }' {} +
  }
  DUPLICATE_CRDS=$(crd_names "${CRD_DIRS[@]}" | sort | uniq -d)
  [[ -z "$DUPLICATE_CRDS" ]] || { echo "bench/scale: CRDs defined in more than one folder: $DUPLICATE_CRDS"; exit 1; }
  load_id() {  # what a loaded etcd holds: the cluster files, the CRD folders and the loader, one line each
    (cd "$OUT/cluster" && sha256sum -- *.json)
    for dir in "${CRD_DIRS[@]}"; do
      echo "$(find "$dir" -maxdepth 1 \( -name '*.yaml' -o -name '*.yml' \) | LC_ALL=C sort | xargs cat | sha256sum |
        cut -d' ' -f1)  crds ${dir##*/}"
    done
    echo "$(sha256sum <bench/scale/load.py | cut -d' ' -f1)  load.py"
  }
  LOAD_ID=$(load_id)
  # etcd data loaded from other files or CRDs, or whose load did not finish, is not reused: an
  # object missing or stale there would go unnoticed in every measurement.
  if [[ -d "$TC_DIR" && "$(cat "$TC_DIR/loaded" 2>/dev/null)" != "$LOAD_ID" ]]; then
    echo "$TC_DIR holds another load (or an unfinished one): loading again into a fresh dir"
    rm -rf "$TC_DIR"
  fi
  rm -f "$TC_DIR/ready"  # a supervisor killed earlier leaves it behind
  CRD_FLAGS=()
  for dir in "${CRD_DIRS[@]}"; do CRD_FLAGS+=(--crds "$dir"); done
  "$TESTCLUSTER" --dir "$TC_DIR" "${CRD_FLAGS[@]}" >"$OUT/testcluster.log" 2>&1 &
  TC_PID=$!
  PIDS+=("$TC_PID")
  until [[ -f "$TC_DIR/ready" ]]; do
    kill -0 "$TC_PID" 2>/dev/null || { echo "testcluster exited:"; tail -20 "$OUT/testcluster.log"; exit 1; }
    sleep 0.5
  done
  if [[ ! -f "$TC_DIR/loaded" ]]; then
    echo "== loading the cluster into the test API server (once: kept in $TC_DIR, marked in loaded)"
    python3 bench/scale/load.py "$OUT/cluster" "$TC_DIR/cluster.env" && printf '%s\n' "$LOAD_ID" >"$TC_DIR/loaded"
  fi
  # shellcheck disable=SC1091
  source "$TC_DIR/cluster.env"
}

# What the auth and TLS benchmarks (auth_tls.sh, auth_row.sh) start with, in folder $1 under OUT:
# HERE and WRK_OUT set, the cluster generated, the test API server started, the three callers of
# callers.py made there (team: a reader of TEAM, team-00) with a token each in HERE, and TARGET,
# each endpoint's path.
start_auth_bench() {
  HERE=$OUT/$1
  mkdir -p "$HERE"
  WRK_OUT=$HERE/wrk.txt
  : >"$WRK_OUT"
  generate_cluster
  start_test_cluster
  TEAM=team-00
  python3 bench/scale/callers.py "$TC_DIR/cluster.env" "$HERE" "$TEAM"
  declare -gA TARGET=([workloads]=/api/v1/kueue/workloads [page100]="/api/v1/kueue/workloads?limit=100"
                      [cq]=/api/v1/kueue/clusterqueues/cq-03 [problems]=/api/v1/problems)
}
