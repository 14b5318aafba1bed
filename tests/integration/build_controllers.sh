#!/usr/bin/env bash
# Builds the operators' controllers the integration tests run (tests/controllers/): those named,
# or all of them, in the order scripts/test.sh builds them; or skips (exit 77) when Go is not
# installed and they were never built. A failing build is a failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
controllers="$here/../controllers"
names=("$@")
((${#names[@]})) || names=(kueue jobset kuberay kserve gpu-operator)
if ! command -v go >/dev/null 2>&1; then
    for name in "${names[@]}"; do
        if [[ ! -x "$controllers/bin/$name" ]]; then
            echo "SKIP: Go is not installed, so the operators' controllers (tests/controllers) cannot be built;" \
                 "the integration tests that run them fail" >&2
            exit 77
        fi
    done
fi
exec "$controllers/build.sh" "${names[@]}"
