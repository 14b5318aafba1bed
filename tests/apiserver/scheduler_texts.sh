#!/usr/bin/env bash
# Checks that every DRA text of tests/fixtures/dra/scheduler-texts.tsv is still where the file
# says, in the modules this directory's go.mod pins (and go.sum verifies): a bump of
# k8s.io/kubernetes or k8s.io/dynamic-resource-allocation that moves or rewords a text the
# daemon recognises fails here until the file, and the recogniser, follow. Exit 77 without Go.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
texts="$here/../fixtures/dra/scheduler-texts.tsv"
command -v go >/dev/null || { echo "scheduler_texts.sh: go is not on PATH" >&2; exit 77; }
cache="${SEXTANT_CACHE:-$HOME/.cache/sextant}/go"
export GOMODCACHE="$cache/mod" GOCACHE="$cache/build" GOTOOLCHAIN=local GOFLAGS="-mod=readonly"
cd "$here"

declare -A dirs
failures=0
checked=0
while IFS=$'\t' read -r id module place literal written; do
  [[ -z "$id" || "$id" == \#* ]] && continue
  path="${module%@*}"
  pinned="$(go list -m -f '{{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}' "$path")"
  if [[ "$module" != "$path@$pinned" ]]; then
    echo "$id: the file names $module, go.mod pins $path@$pinned" >&2
    failures=$((failures + 1))
    continue
  fi
  if [[ -z "${dirs[$module]:-}" ]]; then
    dirs[$module]="$(go mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  fi
  file="${dirs[$module]}/${place%:*}"
  line="${place##*:}"
  found="$(sed -n "${line}p" "$file")"
  if [[ "$found" != *"$literal"* ]]; then
    echo "$id: $module $place no longer holds: $literal" >&2
    echo "    it holds: $found" >&2
    where="$(grep -nF -- "$literal" "$file" | head -3 || true)"
    [[ -n "$where" ]] && echo "    the text is now at: $where" >&2
    failures=$((failures + 1))
  fi
  checked=$((checked + 1))
done <"$texts"
echo "scheduler_texts.sh: $checked texts checked, $failures differ"
((failures == 0 && checked > 0))
