#!/usr/bin/env bash
# Builds the real kube-apiserver + etcd harness and the fault tests' proxy for the integration
# tests, or skips them (exit 77) when Go is not installed at all. A failing build is a failure, not a skip.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
apiserver="$here/../apiserver"
if ! command -v go >/dev/null 2>&1 && [[ ! -x "$apiserver/bin/testcluster" ]]; then
    echo "SKIP: Go is not installed, so the kube-apiserver test harness (tests/apiserver) cannot be built;" \
         "the live-cluster integration tests are skipped" >&2
    exit 77
fi
"$apiserver/build.sh"
# The fault tests' proxy: the standard library only, built in seconds.
exec "$here/../faultproxy/build.sh"
