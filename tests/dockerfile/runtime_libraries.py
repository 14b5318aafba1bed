#!/usr/bin/env python3
"""Checks the Dockerfile's runtime package list against what the built binary links.

Usage: runtime_libraries.py BINARY DOCKERFILE

Every shared library `ldd BINARY` names must come from a package the runtime stage installs,
or from one every Debian image has (BASE_IMAGE); and every library package the stage installs
must be one the binary links: a missing one fails at start in the container, an extra one is
attack surface. Packages the stage installs for data, not linking, are named in DATA_PACKAGES.
The binary is built on this machine's Debian 12, the release the Dockerfile builds on.
"""
import re
import subprocess
import sys

# In every Debian image (Essential or required by apt itself), so never listed.
BASE_IMAGE = {"libc6", "libstdc++6", "libgcc-s1"}
# Installed for what they hold, not for linking.
DATA_PACKAGES = {"ca-certificates"}


def linked_packages(binary):
    out = subprocess.run(["ldd", binary], check=True, capture_output=True, text=True).stdout
    paths = []
    for line in out.splitlines():
        m = re.search(r"=>\s+(\S+)\s+\(", line)
        if m:
            paths.append(m.group(1))
        elif "not found" in line:
            sys.exit(f"runtime_libraries: ldd cannot resolve: {line.strip()}")
    packages = {}
    for path in paths:
        found = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
        if found.returncode != 0:
            # /lib is a symlink to /usr/lib on merged-/usr systems: dpkg knows one of the two.
            other = path.replace("/lib/", "/usr/lib/", 1) if not path.startswith("/usr/") else path[4:]
            found = subprocess.run(["dpkg", "-S", other], capture_output=True, text=True)
        if found.returncode != 0:
            sys.exit(f"runtime_libraries: no Debian package owns {path}")
        package = found.stdout.split(":", 1)[0].strip()
        packages[package] = path
    return packages


def runtime_packages(dockerfile):
    text = open(dockerfile, encoding="utf-8").read().replace("\\\n", " ")
    stages = re.split(r"^FROM\s", text, flags=re.M)
    runtime = stages[-1]
    installs = re.findall(r"apt-get install ([^&;\n]*)", runtime)
    if not installs:
        sys.exit("runtime_libraries: the Dockerfile's last stage installs nothing with apt-get install")
    packages = set()
    for words in installs:
        packages.update(w for w in words.split() if not w.startswith("-"))
    return packages


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    linked = linked_packages(sys.argv[1])
    listed = runtime_packages(sys.argv[2])
    missing = sorted(set(linked) - BASE_IMAGE - listed)
    extra = sorted(listed - set(linked) - DATA_PACKAGES)
    for package in missing:
        print(f"the binary links {linked[package]} from {package}, which the runtime stage does not install")
    for package in extra:
        print(f"the runtime stage installs {package}, which the binary does not link")
    if missing or extra:
        sys.exit(1)
    print("runtime stage installs exactly what the binary links:", " ".join(sorted(listed)))


if __name__ == "__main__":
    main()
