#!/usr/bin/env bash
# Builds the operators' controllers the integration tests run, each its upstream main,
# unmodified, at the version its folder's go.mod pins (go.sum verifies every module):
#
#   tests/controllers/build.sh kueue      # -> tests/controllers/bin/kueue (gitignored)
#
# Cached like tests/apiserver/build.sh: skipped while bin/NAME is newer than NAME/go.mod,
# NAME/go.sum and this script. Go caches live under ${SEXTANT_CACHE:-$HOME/.cache/sextant}/go.
# One build at a time, niced: these are the heaviest Go builds here.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}/go"
(($#)) || { echo "usage: $0 NAME... (a folder of $here with a go.mod)" >&2; exit 2; }

for name in "$@"; do
    mod="$here/$name"
    bin="$here/bin/$name"
    [[ -f "$mod/go.mod" ]] || { echo "build.sh: no $mod/go.mod" >&2; exit 2; }
    if [[ -x "$bin" ]] && [[ -z "$(find "$mod/go.mod" "$mod/go.sum" "$here/build.sh" -newer "$bin" -print -quit)" ]]; then
        continue
    fi
    command -v go >/dev/null || { echo "build.sh: go is not on PATH" >&2; exit 1; }
    pkg="$(awk '$1 == "tool" { print $2; exit }' "$mod/go.mod")"
    [[ -n "$pkg" ]] || { echo "build.sh: $mod/go.mod names no tool to build" >&2; exit 2; }
    mkdir -p "$here/bin" "$cache/mod" "$cache/build"
    start=$SECONDS
    (cd "$mod" && GOMODCACHE="$cache/mod" GOCACHE="$cache/build" GOTOOLCHAIN=local CGO_ENABLED=0 \
        GOFLAGS="-mod=readonly -buildvcs=false" nice -n 10 go build -trimpath -ldflags "-s -w" -o "$bin.tmp" "$pkg")
    mv -f "$bin.tmp" "$bin"
    echo "build.sh: built bin/$name ($pkg) in $((SECONDS - start))s" >&2
done
