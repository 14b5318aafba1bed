#!/usr/bin/env bash
# Builds bin/helm (Helm v4) and bin/kubeconform from the modules go.mod pins (verified against
# go.sum), for tests/helm/check_chart.sh. Go caches live under ${SEXTANT_CACHE:-~/.cache/sextant}/go
# as for the test cluster; a binary is rebuilt only when go.mod or go.sum is newer. Concurrent
# callers take turns (flock). Exit 77: Go is not installed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}/go"
mkdir -p "$here/bin"
exec 9>"$here/bin/.build.lock"
flock 9
command -v go >/dev/null || { echo "build.sh: go is not on PATH" >&2; exit 77; }
export GOMODCACHE="$cache/mod" GOCACHE="$cache/build"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false"
cd "$here"
for tool in helm.sh/helm/v4/cmd/helm github.com/yannh/kubeconform/cmd/kubeconform; do
  bin="bin/$(basename "$tool")"
  if [[ -x "$bin" && "$bin" -nt go.mod && "$bin" -nt go.sum ]]; then
    continue
  fi
  start=$SECONDS
  go build -trimpath -ldflags "-s -w" -o "$bin.tmp" "$tool"
  mv -f "$bin.tmp" "$bin"
  echo "build.sh: built $bin in $((SECONDS - start)) s" >&2
done
