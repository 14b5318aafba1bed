#!/usr/bin/env bash
# Fails when a C++ file the repository tracks is not as clang-format writes it (.clang-format).
# The version is pinned: Debian 12's clang-format-14 (14.0.6), which scripts/install-deps.sh
# --test installs; another major version lays out a few constructs differently, so the check
# refuses to run with one rather than report a tree full of false differences.
# To fix what it finds: clang-format-14 -i <file>... (the command is printed below).
set -euo pipefail
cd "$(dirname "$0")/.."

tool=/usr/bin/clang-format-14
if [[ ! -x "$tool" ]]; then
  echo "check-format: $tool is missing (scripts/install-deps.sh --test installs Debian's clang-format-14)" >&2
  exit 1
fi
if ! "$tool" --version | grep -q 'version 14\.'; then
  echo "check-format: $tool is not clang-format 14: $("$tool" --version)" >&2
  exit 1
fi

# One clang-format process over every file (its warnings name each file that differs): a
# process per file takes most of a minute on a loaded machine.
mapfile -d '' -t files < <(git ls-files -z '*.cpp' '*.hpp' '*.h' '*.cc')
mapfile -t unformatted < <("$tool" --dry-run "${files[@]}" 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)

if ((${#unformatted[@]})); then
  echo "check-format: ${#unformatted[@]} file(s) differ from what clang-format 14 writes (.clang-format):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  echo "fix them with: clang-format-14 -i ${unformatted[*]}" >&2
  exit 1
fi
echo "check-format: every tracked C++ file is formatted (${#files[@]} files)"
