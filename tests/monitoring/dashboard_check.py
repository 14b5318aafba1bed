#!/usr/bin/env python3
"""Checks the Grafana dashboard (deploy/helm/sextantd/files/dashboard.json) loads as Grafana reads it.

It must be valid JSON with a title and uid; every panel but rows must name the dashboard's
Prometheus datasource variable, sit inside the 24-column grid without overlapping another, and
have at least one query, each of which reads a sextant_ metric. That the metrics it reads are
ones the daemon serves is checked against a live daemon's /metrics by
tests/integration/deploy_manifests_test.cpp.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DASHBOARD = os.path.join(ROOT, "deploy", "helm", "sextantd", "files", "dashboard.json")


def main():
    with open(DASHBOARD) as f:
        dashboard = json.load(f)
    problems = []
    for key in ("title", "uid", "panels", "schemaVersion"):
        if key not in dashboard:
            problems.append(f"the dashboard has no {key}")
    variables = {v["name"] for v in dashboard.get("templating", {}).get("list", [])}
    cells = {}
    ids = set()
    queries = 0
    for panel in dashboard.get("panels", []):
        title = panel.get("title", "?")
        if panel.get("id") in ids:
            problems.append(f"{title}: id {panel.get('id')} is used twice")
        ids.add(panel.get("id"))
        grid = panel.get("gridPos", {})
        if grid.get("x", 0) + grid.get("w", 0) > 24 or grid.get("w", 0) <= 0 or grid.get("h", 0) <= 0:
            problems.append(f"{title}: gridPos {grid} is not inside the 24-column grid")
        for x in range(grid.get("x", 0), grid.get("x", 0) + grid.get("w", 0)):
            for y in range(grid.get("y", 0), grid.get("y", 0) + grid.get("h", 0)):
                if (x, y) in cells:
                    problems.append(f"{title}: overlaps {cells[(x, y)]}")
                    break
                cells[(x, y)] = title
            else:
                continue
            break
        if panel.get("type") == "row":
            continue
        source = panel.get("datasource", {}).get("uid", "")
        if not source.startswith("${") or source[2:-1] not in variables:
            problems.append(f"{title}: datasource {source!r} is not one of the dashboard's variables")
        targets = panel.get("targets", [])
        if not targets:
            problems.append(f"{title}: no query")
        for target in targets:
            queries += 1
            if not re.search(r"\bsextant_[a-z0-9_]+", target.get("expr", "")):
                problems.append(f"{title}: query {target.get('expr')!r} reads no sextant_ metric")
    if problems:
        sys.exit("\n".join(problems))
    print(f"dashboard.json: {len(dashboard['panels'])} panels, {queries} queries")


if __name__ == "__main__":
    main()
