#!/usr/bin/env bash
# Builds the operators' controllers the integration tests run, each its upstream main at the
# version its folder's go.mod pins (go.sum verifies every module), unmodified but for one line
# of Kueue's (kueue_overlay below) and two paths of the GPU Operator's (gpu_operator_source):
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

# The GPU Operator reads two fixed paths of the image it ships in: the manifests it deploys, from
# /opt/gpu-operator (where the image puts the module's assets/, and manifests/ below it), and the
# host's /etc/os-release, from /host-etc (which its Deployment mounts from the node). The tests
# must not read or write outside their folder, so the build takes both folders from the
# environment instead: GPU_OPERATOR_ASSETS_DIR and GPU_OPERATOR_HOST_ETC. Go refuses to overlay
# files in the module cache, and the files that name these paths are in library packages
# (controllers, internal/state) that only the module's own packages may import, so the build
# uses a copy of the module made here from the module cache (verified by go.sum when downloaded;
# never committed) in which each literal reads the variable instead (one added file per package
# sets it from the environment), through a go.mod that replaces the module with that copy. The
# same copy's assets/ and manifests/ become bin/gpu-operator-assets, laid out as in the image.
# Counts that differ from the ones below (a version that moves or adds such a path) fail here.
GPU_OPERATOR_MODULE=github.com/NVIDIA/gpu-operator
GPU_OPERATOR_PATHS=(
    # file|literal|replacement|times
    'controllers/state_manager.go|"/opt/gpu-operator/|gpuOperatorAssetsDir + "/|19'
    'internal/state/manager.go|"/opt/gpu-operator/|gpuOperatorAssetsDir + "/|1'
    'controllers/object_controls.go|"/host-etc/os-release"|gpuOperatorHostEtc + "/os-release"|1'
)
gpu_operator_source() {
    local mod="$1" out="$2" dir
    dir="$(cd "$mod" && go mod download -json "$GPU_OPERATOR_MODULE" | awk -F'"' '$2 == "Dir" { print $4 }')" || return 1
    [[ -d "$dir" ]] || { echo "build.sh: gpu-operator: no module folder for $GPU_OPERATOR_MODULE" >&2; return 1; }
    rm -rf "$out" && mkdir -p "$out/src" "$out/assets" || return 1
    cp -R "$dir/." "$out/src/" && chmod -R u+w "$out/src" || return 1
    local entry file from to expected count
    for entry in "${GPU_OPERATOR_PATHS[@]}"; do
        IFS='|' read -r file from to expected <<<"$entry"
        count="$(grep -cF -- "$from" "$out/src/$file" || true)"
        [[ "$count" == "$expected" ]] || {
            echo "build.sh: gpu-operator: expected '$from' $expected times in $file, found it $count times" >&2
            return 1
        }
        FROM="$from" TO="$to" awk '{ while ((i = index($0, ENVIRON["FROM"])) > 0) $0 = substr($0, 1, i - 1) ENVIRON["TO"] substr($0, i + length(ENVIRON["FROM"])); print }' \
            "$out/src/$file" >"$out/src/$file.new" && mv "$out/src/$file.new" "$out/src/$file" || return 1
    done
    local note="// Added by sextant's tests/controllers/build.sh: the image's fixed folders, from the environment."
    printf '%s\n' "package controllers" "" 'import "os"' "" "$note" \
        'var gpuOperatorAssetsDir = os.Getenv("GPU_OPERATOR_ASSETS_DIR")' \
        'var gpuOperatorHostEtc = os.Getenv("GPU_OPERATOR_HOST_ETC")' >"$out/src/controllers/zz_sextant_paths.go" || return 1
    printf '%s\n' "package state" "" 'import "os"' "" "$note" \
        'var gpuOperatorAssetsDir = os.Getenv("GPU_OPERATOR_ASSETS_DIR")' >"$out/src/internal/state/zz_sextant_paths.go" || return 1
    cp -R "$dir/assets/." "$out/assets/" && cp -R "$dir/manifests" "$out/assets/manifests" && chmod -R u+w "$out/assets" || return 1
    { cat "$mod/go.mod" && printf '\nreplace %s => %s\n' "$GPU_OPERATOR_MODULE" "$out/src"; } >"$out/go.mod" || return 1
    cp "$mod/go.sum" "$out/go.sum" || return 1
    echo "$out/go.mod"
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
    # The GPU Operator's binary is useless without its assets (gpu_operator_source).
    if [[ -x "$bin" ]] && [[ "$name" != gpu-operator || -d "$bin-assets" ]] &&
        [[ -z "$(find "$mod/go.mod" "$mod/go.sum" "$here/build.sh" -newer "$bin" -print -quit)" ]]; then
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
    elif [[ "$name" == gpu-operator ]]; then
        file="$(gpu_operator_source "$mod" "$here/bin/.overlay/gpu-operator")"
        overlay=(-modfile "$file")
    fi
    start=$SECONDS
    (cd "$mod" && nice -n 10 go build -trimpath -ldflags "-s -w" "${overlay[@]}" -o "$bin.tmp" "$pkg")
    if [[ "$name" == gpu-operator ]]; then
        rm -rf "$bin-assets" && cp -R "$here/bin/.overlay/gpu-operator/assets" "$bin-assets"
    fi
    mv -f "$bin.tmp" "$bin"
    echo "build.sh: built bin/$name ($pkg) in $((SECONDS - start))s" >&2
done
