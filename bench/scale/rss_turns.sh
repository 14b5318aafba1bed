#!/usr/bin/env bash
# RSS after sync against what the cache holds, live, for one or more daemon builds in turns:
#   [ENVELOPE=1] [RUNS=2] bench/scale/rss_turns.sh SEXTANTD...
# Each build is started RUNS times, in turns with the others, against the same test API server
# (the cluster generated and loaded as run.sh does, kept between runs). Two seconds after
# /readyz: time to ready, RSS, anonymous memory (what a memory limit cannot reclaim), the cache
# (sextant_cache_bytes summed) and the heap in use (glibc's malloc_stats, read through gdb when
# it is installed): RSS over the heap in use is what the allocator holds free, the holes a load
# leaves between long-lived allocations.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
(($# > 0)) || { sed -n 2,3p "$0"; exit 2; }
# shellcheck source=bench/scale/bench_lib.sh
source bench/scale/bench_lib.sh
bench_setup
mkdir -p "$OUT"
generate_cluster
# shellcheck source=bench/scale/test_cluster.sh
source bench/scale/test_cluster.sh
start_test_cluster
echo '{"categories": {"kueue-workloads": {"enabled": true}}}' >"$OUT/settings.json"
PORT=18316
for run in $(seq "${RUNS:-2}"); do
  for daemon in "$@"; do
    START=$(now_ms)
    "$daemon" --kubeconfig "$KUBECONFIG_TOKEN" --listen 127.0.0.1:$PORT --settings-file "$OUT/settings.json" \
      >"$OUT/rss-turn.log" 2>&1 &
    pid=$!
    PIDS+=("$pid")
    ready_ms=$(wait_ready $PORT)
    sleep 2
    rss=$(rss_kb "$pid")
    anon=$(awk '/^Anonymous/ {print $2}' "/proc/$pid/smaps_rollup")
    cache=$(curl -s "127.0.0.1:$PORT/metrics" | awk '/^sextant_cache_bytes\{/ {sum += $2} END {printf "%d", sum}')
    heap="-"
    if command -v gdb >/dev/null; then
      gdb -batch -p "$pid" -ex 'call (void)malloc_stats()' >/dev/null 2>&1 || true
      heap=$(grep -A2 '^Total' "$OUT/rss-turn.log" | awk '/in use/ {print $NF}')
    fi
    # MB as thousands of kB, as /proc reports them (the README's convention).
    python3 -c "
import sys
daemon, ready, rss, anon, cache, heap = sys.argv[1:]
heap_mb = f'{int(heap) / 1e6:.1f}' if heap.isdigit() else '-'
print(f'run $run {daemon}: ready {int(ready) / 1000:.1f} s, RSS {int(rss) / 1000:.1f} MB '
      f'({int(rss) * 1000 / int(cache):.3f}x the cache, {int(cache) / 1e6:.1f} MB), '
      f'anonymous {int(anon) / 1000:.1f} MB ({int(anon) * 1000 / int(cache):.3f}x), heap in use {heap_mb} MB')
" "$daemon" "$ready_ms" "$rss" "$anon" "$cache" "${heap:--}"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  done
done
