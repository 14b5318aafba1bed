#!/usr/bin/env python3
"""The layering of lib/, checked from its #include lines (issue 33).

Each folder directly under lib/ is one layer; a file's folder is the first part of its path, so
lib/sections/kueue/ is `sections`. The rules:
  - no folder other than app/ includes app/ (the wiring sits on top of everything);
  - api/ includes no app/; kube/ includes no sections/, runtime/, api/ or app/: it watches plain
    specs and knows nothing of what the sections mean;
  - no cycle between folders.
Prints each breach and exits 1; exits 0 when the tree holds. `--self-test` runs the check over a
small tree built to break every rule and fails unless each breach is found.
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*"([a-z_]+)/')

# (from, to): `from` must never include `to`.
FORBIDDEN = [
    ("api", "app"),
    ("kube", "sections"),
    ("kube", "runtime"),
    ("kube", "api"),
    ("kube", "app"),
]


def folder_edges(lib):
    """{(from, to): first "file:line" that makes the edge} over every .hpp and .cpp under lib."""
    edges = {}
    for root, _, files in os.walk(lib):
        for name in sorted(files):
            if not name.endswith((".hpp", ".cpp")):
                continue
            path = os.path.join(root, name)
            relative = os.path.relpath(path, lib)
            source = relative.split(os.sep)[0]
            with open(path, encoding="utf-8", errors="replace") as text:
                for number, line in enumerate(text, 1):
                    match = INCLUDE.match(line)
                    if match and match.group(1) != source and os.path.isdir(os.path.join(lib, match.group(1))):
                        edges.setdefault((source, match.group(1)), f"lib/{relative}:{number}")
    return edges


def find_cycle(edges):
    """One folder cycle as a list of folders (first repeated last), or None."""
    graph = {}
    for source, target in edges:
        graph.setdefault(source, []).append(target)
    for targets in graph.values():
        targets.sort()
    colour = {}
    stack = []

    def visit(node):
        colour[node] = "grey"
        stack.append(node)
        for target in graph.get(node, []):
            if colour.get(target) == "grey":
                return stack[stack.index(target):] + [target]
            if target not in colour:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        colour[node] = "black"
        return None

    for node in sorted(graph):
        if node not in colour:
            found = visit(node)
            if found:
                return found
    return None


def breaches(lib):
    edges = folder_edges(lib)
    out = []
    for (source, target), where in sorted(edges.items()):
        if target == "app" and source != "app":
            out.append(f"{where}: {source}/ includes app/ (only app/ may)")
        elif (source, target) in FORBIDDEN:
            out.append(f"{where}: {source}/ includes {target}/")
    cycle = find_cycle(edges)
    if cycle:
        steps = [f"{a} -> {b} ({edges[(a, b)]})" for a, b in zip(cycle, cycle[1:])]
        out.append("folder cycle: " + "; ".join(steps))
    return out


def self_test():
    # auth -> kube -> sections -> auth: the cycle issue 33 broke, with the rules' other breaches.
    tree = {
        "api/router.cpp": '#include "app/state.hpp"\n',
        "app/state.hpp": "",
        "auth/check.hpp": '#include "kube/client.hpp"\n',
        "kube/client.hpp": '#include "sections/section.hpp"\n',
        "sections/section.hpp": '#include "auth/check.hpp"\n',
        "store/object.hpp": '#include "app/state.hpp"\n',
    }
    with tempfile.TemporaryDirectory() as lib:
        for name, text in tree.items():
            os.makedirs(os.path.join(lib, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(lib, name), "w", encoding="utf-8") as out:
                out.write(text)
        found = "\n".join(breaches(lib))
    expected = ["api/ includes app/", "kube/ includes sections/", "store/ includes app/", "folder cycle: auth -> kube"]
    missing = [words for words in expected if words not in found]
    if missing:
        print("check_layers self-test: not found: " + ", ".join(missing) + "\nfound:\n" + found)
        return 1
    print("check_layers self-test: every breach found")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print("usage: check_layers.py <lib folder> | --self-test", file=sys.stderr)
        return 2
    found = breaches(sys.argv[1])
    for line in found:
        print(line)
    if not found:
        print("lib/ layering holds")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
