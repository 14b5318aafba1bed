#!/usr/bin/env bash
# Builds the operators' controllers the integration tests run, each its upstream main at the
# version its folder's go.mod pins (go.sum verifies every module), unmodified but for one line
# of Kueue's (kueue_overlay below):
#
#   tests/controllers/build.sh kueue      # -> tests/controllers/bin/kueue (gitignored)
#
# Cached like tests/apiserver/build.sh: skipped while bin/NAME is newer than NAME/go.mod,
# NAME/go.sum and this script. Go caches live under ${SEXTANT_CACHE:-$HOME/.cache/sextant}/go.
# One build at a time (callers take turns on a lock), niced: the heaviest Go builds here.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}/go"
(($#)) || { echo "usage: $0 NAME... (a folder of $here with a go.mod)" >&2; exit 2; }

# Kueue's main, with internal certificate management off, reads a metrics certificate from the
# fixed folder /etc/kueue/metrics/certs and exits when it is missing, even with metrics off. The
# tests must not write outside their folder, so the build takes that folder from
# KUEUE_METRICS_CERT_DIR instead: a copy of cmd/kueue/main.go, made here from the module cache
# (never committed), in which that one literal is replaced. The go command refuses to overlay
# files in the module cache, so the overlay places Kueue's main package, that copy included, at
# KUEUE_MAIN (a folder of this module that exists only in the overlay) and the build names that
# folder; everything else still comes from the module cache. A version that moves or changes
# the line fails here, loudly, rather than building the original.
KUEUE_MAIN=cmd/kueue
kueue_overlay() {
    local mod="$1" out="$2" dir main
    dir="$(cd "$mod" && go mod download -json sigs.k8s.io/kueue | awk -F'"' '$2 == "Dir" { print $4 }')" || return 1
    main="$dir/cmd/kueue/main.go"
    [[ -f "$main" ]] || { echo "build.sh: kueue: no $main" >&2; return 1; }
    local from='metricsCertPath := "/etc/kueue/metrics/certs"'
    local to='metricsCertPath := os.Getenv("KUEUE_METRICS_CERT_DIR")'
    local count
    count="$(grep -cF -- "$from" "$main" || true)"
    [[ "$count" == 1 ]] || { echo "build.sh: kueue: expected '$from' once in $main, found it $count times" >&2; return 1; }
    grep -qE '^[[:space:]]*"os"$' "$main" || { echo "build.sh: kueue: $main does not import \"os\"" >&2; return 1; }
    mkdir -p "$out"
    awk -v from="$from" -v to="$to" '{ i = index($0, from); if (i) $0 = substr($0, 1, i - 1) to substr($0, i + length(from)); print }' \
        "$main" >"$out/main.go" || return 1
    local file target entries=()
    for file in "$dir"/cmd/kueue/*.go; do
        [[ "$file" == *_test.go ]] && continue
        target="$file"
        [[ "$file" == "$main" ]] && target="$out/main.go"
        entries+=("\"$mod/$KUEUE_MAIN/${file##*/}\": \"$target\"")
    done
    local IFS=,
    printf '{"Replace": {%s}}\n' "${entries[*]}" >"$out/overlay.json" || return 1
    echo "$out/overlay.json"
}

# One build at a time: a second caller (ctest's build step while scripts/test.sh's early build
# runs) waits here, then finds the binaries fresh.
mkdir -p "$here/bin"
exec 9>"$here/bin/.build.lock"
flock 9

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
    export GOMODCACHE="$cache/mod" GOCACHE="$cache/build" GOTOOLCHAIN=local CGO_ENABLED=0 \
        GOFLAGS="-mod=readonly -buildvcs=false"
    overlay=()
    if [[ "$name" == kueue ]]; then
        file="$(kueue_overlay "$mod" "$here/bin/.overlay/kueue")"
        overlay=(-overlay "$file")
        pkg="./$KUEUE_MAIN"
    fi
    start=$SECONDS
    (cd "$mod" && nice -n 10 go build -trimpath -ldflags "-s -w" "${overlay[@]}" -o "$bin.tmp" "$pkg")
    mv -f "$bin.tmp" "$bin"
    echo "build.sh: built bin/$name ($pkg) in $((SECONDS - start))s" >&2
done
