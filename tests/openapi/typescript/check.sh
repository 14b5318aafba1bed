#!/usr/bin/env bash
# Proves api/openapi.yaml usable by a front-end: openapi-typescript generates its types, tsc
# type-checks read_demo.ts against them (strict), and the compiled program then reads every
# resource of the demo cluster from a daemon serving it.
# Usage: check.sh SEXTANTD
# openapi-typescript and typescript come from npm at the versions and hashes package-lock.json
# pins (npm ci), installed once under ${SEXTANT_CACHE:-~/.cache/sextant}/openapi-typescript/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
sextantd="${1:?usage: check.sh SEXTANTD}"
pins=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
tools="${SEXTANT_CACHE:-$HOME/.cache/sextant}/openapi-typescript/$pins"
if [[ ! -f "$tools/.complete" ]]; then
  rm -rf "$tools"
  mkdir -p "$tools"
  cp "$here/package.json" "$here/package-lock.json" "$tools/"
  (cd "$tools" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) ||
    { echo "check.sh: npm ci of tests/openapi/typescript failed" >&2; exit 1; }
  touch "$tools/.complete"
fi

work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pid=""
trap 'if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
cp "$here/read_demo.ts" "$here/tsconfig.json" "$work/"
"$tools/node_modules/.bin/openapi-typescript" "$root/api/openapi.yaml" --output "$work/api.d.ts" --silent
"$tools/node_modules/.bin/tsc" --version
"$tools/node_modules/.bin/tsc" -p "$work/tsconfig.json"
echo "tsc: read_demo.ts type-checks against the types of api/openapi.yaml"

"$sextantd" --snapshot "$root/examples/demo-cluster" --now 2026-11-29T12:00:00Z --listen "127.0.0.1:$port" \
  >"$work/sextantd.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
  sleep 0.1
done
node "$work/out/read_demo.js" "http://127.0.0.1:$port" || { cat "$work/sextantd.log" >&2; exit 1; }
