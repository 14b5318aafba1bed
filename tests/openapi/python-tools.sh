#!/usr/bin/env bash
# Prints the bin folder of a Python environment holding requirements.txt (openapi-spec-validator,
# Schemathesis), making it first if needed: Debian's python3 with its venv module, every wheel
# pinned by hash. Kept under ${SEXTANT_CACHE:-~/.cache/sextant}/openapi-python/<hash of the
# requirements>, so a changed pin makes a new one and a warm run makes none.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pins=$(sha256sum "$here/requirements.txt" | cut -c1-16)
venv="${SEXTANT_CACHE:-$HOME/.cache/sextant}/openapi-python/$pins"
# .complete is written last: a run stopped half way leaves an environment that is made again.
if [[ ! -f "$venv/.complete" ]]; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --require-hashes -r "$here/requirements.txt" >&2 ||
        { echo "python-tools.sh: could not install tests/openapi/requirements.txt from PyPI" >&2; exit 1; }
    touch "$venv/.complete"
fi
echo "$venv/bin"
