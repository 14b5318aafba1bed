#!/usr/bin/env bash
# Smoke test of bin/testcluster with curl: DRA versions, a Kueue v1beta2
# list, RBAC for the reader token, the wrong CA, compaction -> 410, restart,
# and a clean SIGTERM. Usage: smoke.sh (the CRDs come from the operators' Go
# modules through tests/upstream/fetch.sh). Prints one line per check and
# "N passed, N failed".
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/build.sh" || exit 1
crd_dirs="$("$here/../upstream/fetch.sh" crds/kueue crds/jobset crds/kuberay crds/kserve crds/gpu-operator)" || exit 1

dir="$(mktemp -d /tmp/testcluster-smoke.XXXXXX)"
args=(--dir "$dir")
while read -r crds; do args+=(--crds "$crds"); done <<<"$crd_dirs"
"$here/bin/testcluster" "${args[@]}" >"$dir/testcluster.out" 2>&1 &
sup=$!
trap 'kill $sup 2>/dev/null; wait $sup 2>/dev/null' EXIT

passed=0 failed=0
check() { # name, then a command that must succeed
    local name="$1"; shift
    if "$@" >/dev/null 2>&1; then echo "ok   $name"; passed=$((passed + 1))
    else echo "FAIL $name"; failed=$((failed + 1)); fi
}

for _ in $(seq 600); do [[ -f "$dir/ready" ]] || ! kill -0 $sup 2>/dev/null && break; sleep 0.5; done
if [[ ! -f "$dir/ready" ]]; then cat "$dir/testcluster.out"; echo "0 passed, 1 failed"; exit 1; fi
# shellcheck disable=SC1091
. "$dir/cluster.env"
T="$(cat "$ADMIN_TOKEN_FILE")" R="$(cat "$READER_TOKEN_FILE")"
api() { curl -sS --cacert "$CA_CRT" -H "Authorization: Bearer ${TOK:-$T}" "$@"; }
code() { api -o /dev/null -w '%{http_code}' "$@"; }
json() { api -H 'Content-Type: application/json' "$@"; }
rv_of() { python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])'; }

check "resource.k8s.io lists v1,v1beta2,v1beta1,v1alpha3" bash -c \
    "$(declare -f api); T=$T CA_CRT=$CA_CRT; api $SERVER/apis/resource.k8s.io | grep -q '\"resource.k8s.io/v1alpha3\"' && api $SERVER/apis/resource.k8s.io | grep -q '\"resource.k8s.io/v1beta1\"' && api $SERVER/apis/resource.k8s.io | grep -q '\"resource.k8s.io/v1beta2\"'"
check "kueue v1beta2 clusterqueues 200" test "$(code "$SERVER/apis/kueue.x-k8s.io/v1beta2/clusterqueues")" = 200
check "client cert 200" test "$(curl -sS -o /dev/null -w '%{http_code}' --cacert "$CA_CRT" --cert "$CLIENT_CRT" --key "$CLIENT_KEY" "$SERVER/api/v1/pods")" = 200
check "reader 403 before binding" test "$(TOK=$R code "$SERVER/api/v1/pods")" = 403
json -X POST "$SERVER/apis/rbac.authorization.k8s.io/v1/clusterroles" -o /dev/null -d \
    '{"metadata":{"name":"smoke-read"},"rules":[{"apiGroups":["*"],"resources":["*"],"verbs":["get","list","watch"]}]}'
json -X POST "$SERVER/apis/rbac.authorization.k8s.io/v1/clusterrolebindings" -o /dev/null -d \
    '{"metadata":{"name":"smoke-read"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"smoke-read"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"sextant-reader"}]}'
sleep 0.5
check "reader 200 after binding" test "$(TOK=$R code "$SERVER/apis/kueue.x-k8s.io/v1beta2/clusterqueues")" = 200
check "wrong CA refused by the client" bash -c "! curl -sS --cacert '$WRONG_CA_CRT' '$SERVER/version'"
check "wrong-CA client cert 401" test "$(curl -sS -o /dev/null -w '%{http_code}' --cacert "$CA_CRT" --cert "$WRONG_CLIENT_CRT" --key "$WRONG_CLIENT_KEY" "$SERVER/api/v1/pods")" = 401

cq="$SERVER/apis/kueue.x-k8s.io/v1beta2/clusterqueues"
rv="$(json -X POST "$cq" -d '{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{"name":"smoke"},"spec":{}}' | rv_of)"
json -X PATCH -H 'Content-Type: application/merge-patch+json' "$cq/smoke" -o /dev/null -d '{"metadata":{"labels":{"a":"b"}}}'
check "POST /compact" bash -c "curl -sS -X POST '$CONTROL/compact' | grep -q revision"
check "POST /restart-apiserver" bash -c "curl -sS -X POST '$CONTROL/restart-apiserver' | grep -q pid"
check "watch from compacted rv $rv: ERROR 410" bash -c \
    "curl -sS -m 5 --cacert '$CA_CRT' -H 'Authorization: Bearer $T' '$cq?watch=1&resourceVersion=$rv' | head -1 | grep -q '\"code\":410'"
check "cluster queue kept across restart" test "$(code "$cq/smoke")" = 200

apiserver_pid="$(curl -sS "$CONTROL/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiserverPid"])')"
kill -TERM $sup
for _ in $(seq 100); do kill -0 $sup 2>/dev/null || break; sleep 0.1; done
check "SIGTERM: supervisor gone within 10s" bash -c "! kill -0 $sup"
check "SIGTERM: apiserver gone" bash -c "! kill -0 $apiserver_pid"
check "SIGTERM: ready removed" test ! -e "$dir/ready"
trap - EXIT
wait $sup 2>/dev/null
rm -rf "$dir"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
