#!/usr/bin/env bash
# Checks deploy/helm/sextantd: `helm lint --strict`, the comparison of its default rendering
# with deploy/ (compare_with_kustomize.py), and `helm template | kubeconform -strict` with the
# defaults, with every optional object on (all-on.yaml, TLS from a Secret) and with the
# monitoring objects over the default self-signed TLS (self-signed-monitored.yaml). kubeconform
# validates against the schemas of the test cluster's own kube-apiserver (tests/apiserver),
# started here with the Prometheus Operator's CRDs so that the ServiceMonitor and PrometheusRule
# are checked too (openapi_to_schemas.py), and with cert-manager's for deploy/cert-manager/'s
# Certificate and Issuers. Helm v4 and kubeconform come from go.mod's pinned modules (build.sh).
# Exit 77: Go is not installed, so neither tool can be built.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
chart="$root/deploy/helm/sextantd"
"$here/build.sh"
helm="$here/bin/helm" kubeconform="$here/bin/kubeconform"
"$helm" version --short

"$helm" lint --strict "$chart"
"$helm" lint --strict "$chart" --values "$here/all-on.yaml"
"$helm" lint --strict "$chart" --values "$here/self-signed-monitored.yaml"
# A CA made in each Pod cannot sit behind one Service: self-signed with replicas > 1 is refused.
if refused="$("$helm" template sextantd "$chart" --set replicas=2 2>&1)" ||
  ! grep -q "makes a CA in each Pod" <<<"$refused"; then
  echo "check_chart.sh: tls.mode self-signed with 2 replicas was not refused for that reason: $refused" >&2
  exit 1
fi
python3 "$here/compare_with_kustomize.py" "$helm"

"$root/tests/apiserver/build.sh"
crds="$("$root/tests/upstream/fetch.sh" crds/prometheus-operator)"
work="$(mktemp -d /tmp/check-chart.XXXXXX)"
trap 'rm -rf "$work"' EXIT
# cert-manager's CRDs, for deploy/cert-manager/'s example, without the Helm templates its
# release files keep in label values.
mkdir "$work/cert-manager-crds"
python3 - "$("$root/tests/upstream/fetch.sh" crds/cert-manager)" "$work/cert-manager-crds" <<'EOF_PY'
import pathlib, sys, yaml
source, target = map(pathlib.Path, sys.argv[1:])
for file in source.glob("*.yaml"):
    crd = yaml.safe_load(file.read_text())
    crd["metadata"] = {"name": crd["metadata"]["name"]}
    (target / file.name).write_text(yaml.safe_dump(crd))
EOF_PY
"$root/tests/apiserver/bin/testcluster" --dir "$work/cluster" --crds "$crds" --crds "$work/cert-manager-crds" \
  >"$work/testcluster.out" 2>&1 &
cluster=$!
trap 'kill "$cluster" 2>/dev/null || true; wait "$cluster" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 600); do [[ -f "$work/cluster/ready" ]] || ! kill -0 "$cluster" 2>/dev/null && break; sleep 0.5; done
[[ -f "$work/cluster/ready" ]] || { cat "$work/testcluster.out" >&2; echo "check_chart.sh: the test cluster did not start" >&2; exit 1; }
# shellcheck disable=SC1091
. "$work/cluster/cluster.env"
# The API server publishes a CRD's schema a moment after the CRD is established.
for _ in $(seq 120); do
  curl -sSf --cacert "$CA_CRT" -H "Authorization: Bearer $(cat "$ADMIN_TOKEN_FILE")" "$SERVER/openapi/v2" -o "$work/swagger.json"
  grep -q '"com.coreos.monitoring.v1.PrometheusRule"' "$work/swagger.json" &&
    grep -q '"com.coreos.monitoring.v1.ServiceMonitor"' "$work/swagger.json" &&
    grep -q '"io.cert-manager.v1.Certificate"' "$work/swagger.json" && break
  sleep 0.5
done
kill "$cluster"; wait "$cluster" 2>/dev/null || true
python3 "$here/openapi_to_schemas.py" "$work/swagger.json" "$work/schemas"

location="$work/schemas/{{ .Group }}/{{ .ResourceAPIVersion }}/{{ .ResourceKind }}.json"
for values in "" "$here/all-on.yaml" "$here/self-signed-monitored.yaml"; do
  "$helm" template sextantd "$chart" --namespace sextant ${values:+--values "$values"} >"$work/rendered.yaml"
  echo "kubeconform: helm template ${values:+--values $(basename "$values")}"
  "$kubeconform" -strict -summary -schema-location "$location" "$work/rendered.yaml"
done
echo "kubeconform: deploy/cert-manager/certificate.yaml"
"$kubeconform" -strict -summary -schema-location "$location" "$root/deploy/cert-manager/certificate.yaml"
