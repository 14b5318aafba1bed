#!/usr/bin/env python3
"""Fails when two section folders share an identical run of 6 or more lines of code.

A section is one folder under lib/sections/; what two of them need alike belongs in
lib/sections/common (the toolkit), not in a copy in each. Lines are compared with their
indentation and trailing spaces removed; blank lines, comment lines, lone braces and #include
lines are left out, so a run is six lines that do something. Runs inside one folder are not
this check's business (`duplicates` from the tool library finds those).

Usage: tests/guards/section_duplicates.py [repository root]   (exit 1 and the runs when found)
"""
import pathlib
import sys

RUN = 6
SKIPPED_FOLDERS = {"common"}


def meaningful_lines(path):
    """(line number, normalised text) of the lines that count."""
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("//") or text.startswith("#include") or text in {"{", "}", "};", "});"}:
            continue
        out.append((number, text))
    return out


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    sections = root / "lib" / "sections"
    # Every window of RUN meaningful lines, by its text, with where it is.
    windows = {}
    for folder in sorted(p for p in sections.iterdir() if p.is_dir() and p.name not in SKIPPED_FOLDERS):
        for path in sorted(folder.rglob("*")):
            if path.suffix not in {".cpp", ".hpp"}:
                continue
            lines = meaningful_lines(path)
            for i in range(len(lines) - RUN + 1):
                key = tuple(text for _, text in lines[i:i + RUN])
                windows.setdefault(key, []).append((folder.name, path.relative_to(root), lines[i][0]))
    found = {}
    for key, places in windows.items():
        folders = {folder for folder, _, _ in places}
        if len(folders) > 1:
            # Report each pair of files once, at the first line where they share a run.
            files = tuple(sorted({(str(path), line) for _, path, line in places}))
            pair = tuple(sorted({path for path, _ in files}))
            found.setdefault(pair, files)
    if not found:
        print(f"section-duplicates: no run of {RUN} identical lines is shared by two section folders")
        return 0
    print(f"section-duplicates: {len(found)} run(s) of {RUN}+ identical lines shared by section folders; "
          "move them into lib/sections/common (the toolkit):", file=sys.stderr)
    for files in found.values():
        print("  " + "  =  ".join(f"{path}:{line}" for path, line in files), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
