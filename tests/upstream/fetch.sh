#!/usr/bin/env bash
# Prints, one line per NAME, the folder holding that set of upstream files, taken from the Go
# module go.mod pins (downloaded with `go mod download`, so go.sum verifies it), as
# controller-runtime's envtest users take CRDs from their modules:
#
#   tests/upstream/fetch.sh crds/kueue crds/jobset   # -> .../upstream/crds/kueue@v0.19.2 ...
#   tests/upstream/fetch.sh webhooks/kueue           # -> .../upstream/webhooks/kueue@v0.19.2
#   tests/upstream/fetch.sh --list                   # every NAME this script knows
#
# A folder holds only the files listed below for its NAME, under their upstream file names, so
# it can be given to `testcluster --crds` or loaded as a snapshot as it is. Folders are cached
# under ${SEXTANT_CACHE:-$HOME/.cache/sextant}/upstream/ and named by version: a version bump
# in go.mod makes a new one, and a cached folder costs nothing. Modules go to the project's Go
# module cache (…/go/mod). Safe to run from parallel tests: one lock, and each folder appears
# whole (made beside, then renamed).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}"

# NAME -> the module that holds it, and the files (globs, relative to the module root).
declare -A module files
module[crds/kueue]=sigs.k8s.io/kueue
files[crds/kueue]="config/components/crd/bases/kueue.x-k8s.io_*.yaml"
module[crds/jobset]=sigs.k8s.io/jobset
files[crds/jobset]="config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml"
module[crds/kuberay]=github.com/ray-project/kuberay/ray-operator
files[crds/kuberay]="config/crd/bases/ray.io_rayclusters.yaml config/crd/bases/ray.io_rayjobs.yaml
  config/crd/bases/ray.io_rayservices.yaml"
module[crds/kserve]=github.com/kserve/kserve
files[crds/kserve]="config/crd/full/serving.kserve.io_inferenceservices.yaml
  config/crd/full/serving.kserve.io_servingruntimes.yaml config/crd/full/serving.kserve.io_clusterservingruntimes.yaml
  config/crd/full/serving.kserve.io_inferencegraphs.yaml config/crd/full/serving.kserve.io_trainedmodels.yaml"
# The CRDs KServe's controller reads besides those the section does: it lists Cluster Storage
# Containers for every storage URI, and its webhooks check Local Model Caches.
module[crds/kserve-controller]=github.com/kserve/kserve
files[crds/kserve-controller]="config/crd/full/serving.kserve.io_clusterstoragecontainers.yaml
  config/crd/full/serving.kserve.io_localmodelcaches.yaml config/crd/full/serving.kserve.io_localmodelnodegroups.yaml
  config/crd/full/serving.kserve.io_localmodelnodes.yaml"
module[crds/gpu-operator]=github.com/NVIDIA/gpu-operator
files[crds/gpu-operator]="config/crd/bases/nvidia.com_clusterpolicies.yaml config/crd/bases/nvidia.com_nvidiadrivers.yaml"
module[crds/training-operator]=github.com/kubeflow/training-operator
files[crds/training-operator]="manifests/base/crds/kubeflow.org_*.yaml"
module[crds/trainer]=github.com/kubeflow/trainer/v2
files[crds/trainer]="manifests/base/crds/trainer.kubeflow.org_*.yaml"
module[crds/lws]=sigs.k8s.io/lws
files[crds/lws]="config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml"
module[crds/appwrapper]=github.com/project-codeflare/appwrapper
files[crds/appwrapper]="config/crd/bases/workload.codeflare.dev_appwrappers.yaml"
# The Prometheus Operator's ServiceMonitor and PrometheusRule, which the Helm chart renders
# (tests/helm/check_chart.sh validates them with kubeconform against these CRDs).
module[crds/prometheus-operator]=github.com/prometheus-operator/prometheus-operator
files[crds/prometheus-operator]="example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml
  example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml"
# cert-manager's Certificate and Issuer, of which deploy/cert-manager/ holds an example
# (check_chart.sh validates it). Its CRDs carry Helm templates in label values and comments.
module[crds/cert-manager]=github.com/cert-manager/cert-manager
files[crds/cert-manager]="deploy/crds/crd-certificates.yaml deploy/crds/crd-issuers.yaml"
# The operators' generated webhook manifests, for `testcluster --kueue-webhooks/--jobset-webhooks`,
# which registers them by URL with the controller the tests run.
module[webhooks/kueue]=sigs.k8s.io/kueue
files[webhooks/kueue]="config/components/webhook/manifests.yaml"
module[webhooks/jobset]=sigs.k8s.io/jobset
files[webhooks/jobset]="config/components/webhook/manifests.yaml"
module[webhooks/kserve]=github.com/kserve/kserve
files[webhooks/kserve]="config/webhook/manifests.yaml"
# The ConfigMap KServe's controller reads its settings from (`testcluster --kserve-config`).
module[config/kserve]=github.com/kserve/kserve
files[config/kserve]="config/configmap/inferenceservice.yaml"
# k8s.io/api's round-trip test data of the DRA kinds: every field filled with a synthetic value.
module[testdata/k8s-api-resource]=k8s.io/api
files[testdata/k8s-api-resource]="testdata/HEAD/resource.k8s.io.*.yaml"

if [[ "${1:-}" == "--list" ]]; then
    printf '%s\n' "${!module[@]}" | LC_ALL=C sort
    exit 0
fi
(($#)) || { echo "usage: $0 NAME... | --list" >&2; exit 2; }

version_of() {
    awk -v m="$1" '$1 == m && $2 ~ /^v/ { print $2; exit }' "$here/go.mod"
}

fetch_one() {
    local name="$1" mod="${module[$1]:-}"
    [[ -n "$mod" ]] || { echo "fetch.sh: unknown NAME '$name' (see --list)" >&2; return 1; }
    local version
    version="$(version_of "$mod")"
    [[ -n "$version" ]] || { echo "fetch.sh: $mod is not required in $here/go.mod" >&2; return 1; }
    local out="$cache/upstream/$name@$version"
    [[ -d "$out" ]] && { echo "$out"; return 0; }

    command -v go >/dev/null || {
        echo "fetch.sh: go is not on PATH, and $name@$version is not cached in $cache/upstream" >&2
        return 1
    }
    local dir
    dir="$(cd "$here" && GOMODCACHE="$cache/go/mod" GOTOOLCHAIN=local GOFLAGS=-mod=readonly \
        go mod download -json "$mod@$version" | awk -F'"' '$2 == "Dir" { print $4 }')"
    [[ -n "$dir" && -d "$dir" ]] || { echo "fetch.sh: go mod download $mod@$version gave no folder" >&2; return 1; }

    local tmp="$out.tmp.$$" pattern file found=0
    rm -rf "$tmp" && mkdir -p "$tmp"
    for pattern in ${files[$name]}; do
        for file in "$dir"/$pattern; do
            [[ -f "$file" ]] || { echo "fetch.sh: $mod@$version has no $pattern" >&2; rm -rf "$tmp"; return 1; }
            cp "$file" "$tmp/" && found=$((found + 1))
        done
    done
    chmod -R u+w "$tmp"
    mv -T "$tmp" "$out"
    echo "fetch.sh: $name@$version: $found files from $mod" >&2
    echo "$out"
}

mkdir -p "$cache/upstream"
exec 9>"$cache/upstream/.lock"
flock 9
for name in "$@"; do
    fetch_one "$name"
done
