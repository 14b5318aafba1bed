#!/usr/bin/env python3
"""Runs Schemathesis against sextantd: every operation of api/openapi.yaml, every check.

Usage: schemathesis_run.py --sextantd BINARY   the demo cluster in snapshot mode, no token
       schemathesis_run.py --url URL [--token-file FILE] [--skip-logs]
                                                a daemon already running (--auth=kubernetes)

No answer may be a 5xx, and every answer must conform to the document (status, content type,
headers, body), schema-valid requests must be taken and schema-invalid ones refused. The run is
bounded: a fixed number of examples per operation and a fixed seed, so it asks the same
requests every time. Each details and section route is also asked about one real object: the
first item the daemon lists of its resource (Schemathesis' own names find only 404s).
Schemathesis comes pinned by hash from PyPI (python-tools.sh); the hooks leave out `continue`
(schemathesis_hooks.py says why).
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOCUMENT = os.path.join(ROOT, "api", "openapi.yaml")
SEED = 20261129
EXAMPLES = 12
# Refusals Schemathesis does not count as refusals by itself: the HTTP server's 413 and 431.
REFUSALS = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "431"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, token=None):
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def wait_ready(url, daemon, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if daemon is not None and daemon.poll() is not None:
            sys.exit(f"schemathesis_run: sextantd exited with {daemon.returncode} before it was ready")
        try:
            if get(url + "/readyz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit(f"schemathesis_run: {url}/readyz did not answer 200 within {seconds} s")


def real_objects(url, token, document):
    """[[operations]] entries: each object route asked about the first object of its resource."""
    entries = []

    def first(list_path):
        status, body = get(url + list_path, token)
        items = json.loads(body).get("items", []) if status == 200 else []
        return items[0] if items else None

    for section, resources in document["x-sextant-resources"].items():
        for resource, scope in resources.items():
            if scope == "computed":
                continue
            item = first(f"/api/v1/{section}/{resource}")
            if item is None:
                continue
            path = f"/api/v1/{section}/{resource}/" + ("{namespace}/{name}" if scope == "namespaced" else "{name}")
            parameters = {"name": item["name"]}
            if scope == "namespaced":
                parameters["namespace"] = item["namespace"]
            entries.append((path, parameters))
    job = first("/api/v1/core/jobs")
    if job is not None:
        entries.append(("/api/v1/kueue/queue/{jobresource}/{namespace}/{name}",
                        {"jobresource": "jobs", "namespace": job["namespace"], "name": job["name"]}))
    for resource in ("rayclusters", "rayjobs"):
        item = first(f"/api/v1/kuberay/{resource}")
        if item is not None:
            entries.append((f"/api/v1/kuberay/{resource}/{{namespace}}/{{name}}/logs",
                            {"namespace": item["namespace"], "name": item["name"]}))
    return entries


def toml_string(text):
    return json.dumps(text)  # a JSON string is a valid TOML basic string


def write_config(path, entries):
    lines = ["[checks.negative_data_rejection]",
             "expected-statuses = [" + ", ".join(toml_string(s) for s in REFUSALS) + "]", ""]
    for operation_path, parameters in entries:
        lines.append("[[operations]]")
        lines.append(f"include-path = {toml_string(operation_path)}")
        lines.append("parameters = { " + ", ".join(f"{toml_string(k)} = {toml_string(v)}"
                                                   for k, v in parameters.items()) + " }")
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sextantd")
    parser.add_argument("--url")
    parser.add_argument("--token-file")
    parser.add_argument("--report", help="where to keep Schemathesis' JUnit report")
    parser.add_argument("--skip-logs", action="store_true",
                        help="leave out the pod log routes: a test cluster has no kubelet to serve logs")
    args = parser.parse_args()
    if bool(args.sextantd) == bool(args.url):
        sys.exit(__doc__)
    token = open(args.token_file).read().strip() if args.token_file else None
    tools = subprocess.run([os.path.join(HERE, "python-tools.sh")], check=True, capture_output=True,
                           text=True).stdout.strip()

    daemon = None
    url = args.url
    log = tempfile.NamedTemporaryFile(prefix="sextantd-", suffix=".log", delete=False)
    if args.sextantd:
        url = f"http://127.0.0.1:{free_port()}"
        daemon = subprocess.Popen([args.sextantd, "--snapshot", os.path.join(ROOT, "examples", "demo-cluster"),
                                   "--now", "2026-11-29T12:00:00Z", "--listen", url[len("http://"):]],
                                  stdout=log, stderr=subprocess.STDOUT)
    status = 1
    try:
        wait_ready(url, daemon)
        with open(DOCUMENT) as f:
            document = yaml.safe_load(f)
        with tempfile.TemporaryDirectory() as scratch:
            config = os.path.join(scratch, "schemathesis.toml")
            entries = real_objects(url, token, document)
            write_config(config, entries)
            command = [os.path.join(tools, "schemathesis"), "--no-color", "--config-file", config, "run", DOCUMENT,
                       "--url", url, "--checks", "all", "--phases", "examples,coverage,fuzzing",
                       "--max-examples", str(EXAMPLES), "--seed", str(SEED), "--workers", "1",
                       "--request-timeout", "30", "--suppress-health-check", "too_slow",
                       "--report", "junit", "--report-junit-path", args.report or os.path.join(scratch, "junit.xml")]
            if token:
                command += ["--header", f"Authorization: Bearer {token}"]
            if args.skip_logs:
                command += ["--exclude-path-regex", "/logs$"]
            print(f"schemathesis_run: {len(entries)} operations asked about a real object; seed {SEED}, "
                  f"{EXAMPLES} examples an operation", flush=True)
            environment = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks", PYTHONPATH=HERE)
            status = subprocess.run(command, cwd=scratch, env=environment).returncode
    finally:
        if daemon is not None:
            daemon.send_signal(signal.SIGTERM)
            try:
                code = daemon.wait(timeout=30)
            except subprocess.TimeoutExpired:
                daemon.kill()
                code = "killed after 30 s"
            if code != 0:
                print(f"schemathesis_run: sextantd ended with {code} after SIGTERM", file=sys.stderr)
                status = status or 1
            if status != 0:
                with open(log.name) as f:
                    sys.stderr.write(f.read()[-4000:])
        os.unlink(log.name)
    sys.exit(status)


if __name__ == "__main__":
    main()
