#!/usr/bin/env bash
# Builds bin/testcluster (etcd embedded + upstream kube-apiserver, see README.md).
# Go caches live under ${SEXTANT_CACHE:-$HOME/.cache/sextant}/go so that a
# second build is fast; the build is skipped while bin/testcluster is newer
# than go.mod, go.sum, build.sh and every *.go file. Concurrent callers take turns (flock).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}/go"
bin="$here/bin/testcluster"

# One build at a time: a second caller (ctest's build step while scripts/test.sh's early build
# runs) waits here, then finds the binary fresh.
mkdir -p "$here/bin"
exec 9>"$here/bin/.build.lock"
flock 9

if [[ -x "$bin" ]] && [[ -z "$(find "$here/go.mod" "$here/go.sum" "$here/build.sh" "$here/cmd" \
        -newer "$bin" \( -name '*.go' -o -name 'go.mod' -o -name 'go.sum' -o -name build.sh \) -print -quit)" ]]; then
    exit 0
fi

command -v go >/dev/null || { echo "build.sh: go is not on PATH" >&2; exit 1; }
export GOMODCACHE="$cache/mod" GOCACHE="$cache/build"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false"
mkdir -p "$GOMODCACHE" "$GOCACHE" "$here/bin"

# Stamp /version as the k8s.io/kubernetes release go.mod pins (otherwise it
# says v0.0.0-master); feature and API gating use 1.<minor> either way.
kver="$(awk '$1 == "k8s.io/kubernetes" && $2 ~ /^v1\./ { print $2; exit }' "$here/go.mod")"
minor="$(cut -d. -f2 <<<"$kver")"
pkg=k8s.io/component-base/version
ldflags="-s -w -X $pkg.gitVersion=$kver -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"

start=$SECONDS
cd "$here"
go build -trimpath -ldflags "$ldflags" -o "$bin.tmp" ./cmd/testcluster
mv -f "$bin.tmp" "$bin"
echo "build.sh: built bin/testcluster (kube-apiserver $kver) in $((SECONDS - start))s" >&2
