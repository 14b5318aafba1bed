#!/usr/bin/env bash
# Installs the build dependencies, builds sextantd and serves the demo cluster in snapshot
# mode on 127.0.0.1:8080 (Ctrl-C stops it). Try: curl localhost:8080/api/v1/sections
#
#   scripts/run-demo.sh [sextantd flags…]   the README's first command
#   scripts/run-demo.sh --smoke             what CI runs (scripts/test.sh): the same install and
#                                           build, then the daemon on a free loopback port, one
#                                           GET /api/v1/sections that must list the demo's
#                                           sections, and a SIGTERM that must end it with 0
#
# The build is the Dockerfile's: Release, each file compiled on its own (no unity batches), so
# a file that leans on an include another file of its batch happened to bring fails here as it
# would for anyone building the image.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export CCACHE_DIR="${SEXTANT_CACHE:-$HOME/.cache/sextant}/ccache"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEXTANT_TESTS=OFF -DSEXTANT_BENCH=OFF >/dev/null
cmake --build build --target sextantd
daemon=(build/cmd/sextantd/sextantd --snapshot examples/demo-cluster --now 2026-11-29T12:00:00Z)

if [[ "${1:-}" != --smoke ]]; then
  exec "${daemon[@]}" "$@"
fi

# A free port: the kernel picks one for a socket that is then closed.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
"${daemon[@]}" --listen "127.0.0.1:$port" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
fail() {
  echo "run-demo.sh --smoke: $*" >&2
  sed 's/^/  sextantd: /' "$log" >&2
  exit 1
}
body=""
for _ in $(seq 1 100); do
  kill -0 "$pid" 2>/dev/null || fail "the daemon exited before it answered"
  if body=$(curl -sf --max-time 5 "http://127.0.0.1:$port/api/v1/sections"); then
    break
  fi
  sleep 0.1
done
[[ -n "$body" ]] || fail "no answer from /api/v1/sections within 10 s"
for section in core dra gpu-operator kueue jobset kuberay kserve; do
  grep -q "\"id\":\"$section\"" <<<"$body" || fail "/api/v1/sections does not list $section: $body"
done
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
trap - EXIT
rm -f "$log"
((status == 0)) || fail "SIGTERM ended the daemon with exit code $status"
echo "run-demo.sh --smoke: the demo build served /api/v1/sections with every section and stopped cleanly"
