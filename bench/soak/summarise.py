#!/usr/bin/env python3
"""Judges a soak run (bench/soak/run.sh) from its OUT folder: samples.csv, faults.csv,
result.txt and test.status. Writes summary.txt (the figures of a window after the warm-up and
of the last window, the RSS drift, the checks and a verdict) and soak.gp (gnuplot's script for
soak.png). Standard library only."""
import csv
import os
import statistics
import sys


def read_key_values(path):
    values, repeated = {}, {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            key, _, value = line.rstrip("\n").partition("=")
            if key in ("difference", "fault_error"):
                repeated.setdefault(key, []).append(value)
            elif key:
                values[key] = value
    return values, repeated


def figures(rows, column):
    values = [row[column] for row in rows]
    if not values:
        return None
    return min(values), statistics.median(values), max(values)


def slope_per_second(points):
    """Least-squares slope of (t, v) points."""
    if len(points) < 3:
        return 0.0
    mean_t = statistics.fmean(t for t, _ in points)
    mean_v = statistics.fmean(v for _, v in points)
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    return sum((t - mean_t) * (v - mean_v) for t, v in points) / spread if spread else 0.0


def short_name(fault):
    for word, name in (("SIGTERM", "restart"), ("compacted", "410"), ("stalls", "stall"), ("reset", "cut"),
                       ("429", "429"), ("500", "5xx"), ("SIGKILL", "kill")):
        if word in fault:
            return name
    return "fault"


def main(out):
    minutes = float(os.environ.get("MINUTES", "30"))
    total = minutes * 60
    warmup = min(float(os.environ.get("WARMUP_MINUTES", "5")) * 60, total / 4)
    window = min(300.0, (total - warmup) / 2)
    drift_limit_pct = float(os.environ.get("RSS_DRIFT_PCT", "5"))
    fd_slack = float(os.environ.get("FD_SLACK", "10"))

    rows = []
    with open(os.path.join(out, "samples.csv"), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            parsed = {key: float(value) for key, value in row.items()}
            parsed["rss_mb"] = parsed["rss_kb"] / 1024
            if "view_cache_kb" in parsed:  # runs before 2026-12-07 did not sample it
                parsed["view_cache_mb"] = parsed["view_cache_kb"] / 1024
            rows.append(parsed)
    faults = []
    if os.path.exists(os.path.join(out, "faults.csv")):
        with open(os.path.join(out, "faults.csv"), encoding="utf-8") as f:
            faults = list(csv.DictReader(f))
    result, repeated = read_key_values(os.path.join(out, "result.txt"))
    status = open(os.path.join(out, "test.status")).read().strip() if os.path.exists(
        os.path.join(out, "test.status")) else "?"

    during = [r for r in rows if r["elapsed_s"] <= total + 5]
    settled = [r for r in during if r["elapsed_s"] >= warmup]
    first = [r for r in settled if r["elapsed_s"] < warmup + window]
    last = [r for r in settled if r["elapsed_s"] >= total - window]

    lines = []
    say = lines.append
    say(f"soak of {minutes:g} min, a fault every {result.get('fault_every_s', '?')} s: "
        f"{result.get('faults_injected', len(faults))} faults, {result.get('writes_attempted', '?')} writes "
        f"({result.get('churn_per_second', '?')}/s), {result.get('requests', '?')} front-end requests from "
        f"{result.get('frontends', '?')} front-ends ({result.get('not_modified', '?')} answered 304, "
        f"{result.get('failed_requests', '?')} failed), {result.get('scrapes', '?')} scrapes of /metrics")
    say(f"warm-up excluded: the first {warmup / 60:g} min; compared: {warmup / 60:g}-{(warmup + window) / 60:g} min "
        f"against {(total - window) / 60:g}-{total / 60:g} min ({len(first)} and {len(last)} samples)")
    say("")
    say(f"{'':22}{'first window min / median / max':>36}{'last window min / median / max':>36}")
    table = (("RSS (MB)", "rss_mb"), ("open fds", "open_fds"), ("loop lag, mean (ms)", "lag_mean_ms"),
             ("loop lag, p99 (ms)", "lag_p99_ms"), ("cached objects", "cached_objects"), ("problems", "problems"),
             ("answer cache (MB)", "view_cache_mb"))
    for label, column in table:
        if rows and column not in rows[0]:
            continue
        cells = []
        for part in (first, last):
            f3 = figures(part, column)
            cells.append("-" if f3 is None else " / ".join(f"{v:.1f}" if v < 100 else f"{v:.0f}" for v in f3))
        say(f"{label:22}{cells[0]:>36}{cells[1]:>36}")
    say("")

    checks = []
    rss_median = statistics.median([r["rss_mb"] for r in settled]) if settled else 0
    drift = slope_per_second([(r["elapsed_s"], r["rss_mb"]) for r in settled]) * 600
    drift_pct = 100 * drift / rss_median if rss_median else 0
    say(f"RSS drift after the warm-up: {drift:+.2f} MB per 10 min ({drift_pct:+.1f}% of the median {rss_median:.1f} MB;"
        f" flat up to {drift_limit_pct:g}%)")
    first_rss = figures(first, "rss_mb")
    last_rss = figures(last, "rss_mb")
    rss_flat = bool(first_rss and last_rss) and drift_pct <= drift_limit_pct and last_rss[1] <= first_rss[1] * 1.10
    checks.append(("RSS flat (drift within the limit, last median within 10% of the first)", rss_flat))
    first_fds, last_fds = figures(first, "open_fds"), figures(last, "open_fds")
    fds_flat = bool(first_fds and last_fds) and last_fds[2] <= first_fds[2] + fd_slack
    checks.append((f"open fds flat (last max within {fd_slack:g} of the first max)", fds_flat))
    first_lag, last_lag = figures(first, "lag_mean_ms"), figures(last, "lag_mean_ms")
    lag_flat = bool(first_lag and last_lag) and last_lag[1] <= 2 * first_lag[1] + 1
    checks.append(("loop lag flat (last median mean lag at most twice the first, + 1 ms)", lag_flat))
    converged = result.get("converged") == "yes"
    checks.append((f"cache equal to the server at the end ({result.get('server_pods', '?')} Pods, "
                   f"{result.get('server_jobs', '?')} Jobs by name and uid; "
                   f"{result.get('converged_after_s', '?')} s after the churn stopped)", converged))
    since_kept = (result.get("lasting_problem_since_moved_samples") == "0"
                  and result.get("lasting_problem_absent_samples") == "0"
                  and result.get("lasting_problem_since_end") == result.get("lasting_problem_since_first"))
    checks.append((f"a problem lasting throughout kept its since ({result.get('lasting_problem_since_first', '?')}; "
                   f"absent in {result.get('lasting_problem_absent_samples', '?')} samples, moved in "
                   f"{result.get('lasting_problem_since_moved_samples', '?')})", since_kept))
    checks.append((f"the run's own checks passed (exit status {status}; see test.log)", status == "0"))
    say("checks:")
    for text, ok in checks:
        say(f"  {'ok  ' if ok else 'FAIL'} {text}")
    for d in repeated.get("difference", []):
        say(f"  difference: {d}")
    for e in repeated.get("fault_error", []):
        say(f"  fault error: {e}")
    say("")
    say("faults (start s - end s):")
    for fault in faults:
        say(f"  {float(fault['start_s']):7.0f} - {float(fault['end_s']):7.0f}  {fault['fault']}")
    say("")
    say(f"verdict={'PASS' if all(ok for _, ok in checks) else 'FAIL'}")
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    write_plot(out, minutes, warmup, faults)


def write_plot(out, minutes, warmup, faults):
    marks = []
    for fault in faults:
        x = float(fault["start_s"]) / 60
        marks.append(f'set arrow from first {x:.3f}, graph 0 to first {x:.3f}, graph 1 nohead dt 2 lc rgb "#c03030"')
    labels = [f'set label "{short_name(fault["fault"])}" at first {float(fault["start_s"]) / 60:.3f}, graph 1.04 '
              f'center font ",8" tc rgb "#c03030"' for fault in faults]
    script = f"""set terminal pngcairo size 1100,1300 font ",10"
set output "{out}/soak.png"
set datafile separator ","
set datafile columnheaders
set key top left
set grid ytics
set xrange [0:{minutes:g}]
set object 1 rect from first 0, graph 0 to first {warmup / 60:.3f}, graph 1 fc rgb "#eeeeee" fs solid noborder behind
{chr(10).join(marks)}
set multiplot layout 4,1 title "sextantd soak: {minutes:g} min, faults as dashed lines, warm-up shaded"
set tmargin 2
set lmargin 10
set rmargin 10
{chr(10).join(labels)}
set ylabel "RSS (MB)"
set yrange [0:*]
plot "{out}/samples.csv" using ($1/60):($2/1024) with linespoints pt 7 ps 0.4 title "RSS"
unset label
set ylabel "open fds"
plot "{out}/samples.csv" using ($1/60):3 with linespoints pt 7 ps 0.4 title "open file descriptors"
set ylabel "loop lag (ms)"
set yrange [*:*]
set logscale y
plot "{out}/samples.csv" using ($1/60):($4>0?$4:1/0) with linespoints pt 7 ps 0.4 title "mean over 10 s", \\
     "" using ($1/60):($5>0?$5:1/0) with steps title "p99 (bucket bound)", \\
     "" using ($1/60):($6>0?$6:1/0) with lines dt 3 title "max stall since start"
unset logscale y
set yrange [0:*]
set y2range [0:*]
set ylabel "cached objects"
set y2label "problems / kinds out of date"
set y2tics
set ytics nomirror
set xlabel "minutes"
plot "{out}/samples.csv" using ($1/60):8 with lines lw 2 title "cached objects", \\
     "" using ($1/60):7 axes x1y2 with steps lw 2 title "problems", \\
     "" using ($1/60):10 axes x1y2 with impulses lw 3 title "kinds out of date (/readyz)"
unset multiplot
"""
    with open(os.path.join(out, "soak.gp"), "w", encoding="utf-8") as f:
        f.write(script)


if __name__ == "__main__":
    main(sys.argv[1])
