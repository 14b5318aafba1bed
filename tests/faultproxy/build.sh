#!/usr/bin/env bash
# Builds bin/faultproxy (the fault-injecting proxy of the fault tests, see main.go). Standard
# library only: no module is downloaded, so there is no go.sum. Skipped while the binary is
# newer than its sources; concurrent callers take turns (flock). `build.sh --test` runs the
# proxy's own tests (main_test.go) instead.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}/go"
bin="$here/bin/faultproxy"

mkdir -p "$here/bin"
exec 9>"$here/bin/.build.lock"
flock 9

export GOMODCACHE="$cache/mod" GOCACHE="$cache/build"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" GOPROXY=off
if [[ "${1:-}" == --test ]]; then
    cd "$here"
    exec go test -count=1 .
fi
if [[ -x "$bin" ]] && [[ -z "$(find "$here" -maxdepth 1 -newer "$bin" \( -name '*.go' -o -name go.mod -o -name build.sh \) -print -quit)" ]]; then
    exit 0
fi
command -v go >/dev/null || { echo "build.sh: go is not on PATH" >&2; exit 1; }
cd "$here"
go build -trimpath -o "$bin.tmp" .
mv -f "$bin.tmp" "$bin"
echo "build.sh: built bin/faultproxy" >&2
