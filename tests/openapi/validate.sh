#!/usr/bin/env bash
# api/openapi.yaml is a valid OpenAPI 3.0.3 document, as openapi-spec-validator (pinned by hash
# from PyPI, python-tools.sh) reads it: every schema keyword known, every $ref resolved, every
# path parameter declared.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tools="$("$here/python-tools.sh")"
"$tools/openapi-spec-validator" "$here/../../api/openapi.yaml"
