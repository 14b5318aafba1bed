#!/usr/bin/env bash
# Builds the operators' controllers the integration tests run (tests/controllers/), or skips
# (exit 77) when Go is not installed and they were never built. A failing build is a failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
controllers="$here/../controllers"
if ! command -v go >/dev/null 2>&1 && [[ ! -x "$controllers/bin/kueue" ]]; then
    echo "SKIP: Go is not installed, so the operators' controllers (tests/controllers) cannot be built;" \
         "the integration tests that run them fail" >&2
    exit 77
fi
exec "$controllers/build.sh" kueue jobset kuberay
