#!/usr/bin/env python3
"""Runs Schemathesis against sextantd with --auth=kubernetes, over the demo cluster's objects.

Usage: schemathesis_auth.py SEXTANTD

Authentication needs an API server to review tokens, so this starts the test cluster
(tests/apiserver, with the demo's operators' CRDs from tests/upstream/fetch.sh), creates every
object of examples/demo-cluster in it (statuses written as their controllers would), runs the
daemon against it with --auth=kubernetes, and runs schemathesis_run.py three times: as the
cluster's admin (sees everything), as `sextant-reader` granted Kueue and the core kinds in
team-a only (lists filtered, details of team-b refused with 403, joined team-b objects
{"hidden": …}, /metrics refused), and with no token (401 everywhere but the probes). Every
answer of each must conform to api/openapi.yaml, none may be a 5xx. The pod log routes are left
out here: no kubelet runs, so the API server cannot serve a log (the daemon's 503 says so); the
snapshot run asks them.
Exit 77 when the test cluster cannot be built (no Go).
"""
import json
import os
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CRD_SETS = ["crds/kueue", "crds/jobset", "crds/gpu-operator", "crds/kuberay", "crds/kserve"]


class Cluster:
    def __init__(self, folder):
        env = dict(line.strip().split("=", 1) for line in open(os.path.join(folder, "cluster.env")) if "=" in line)
        self.server = env["SERVER"]
        self.context = ssl.create_default_context(cafile=env["CA_CRT"])
        self.folder = folder
        self.token = open(os.path.join(folder, "admin.token")).read().strip()

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.server + path, data=data, method=method)
        request.add_header("Authorization", "Bearer " + self.token)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, context=self.context, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")[:300]


def demo_objects():
    objects = []
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "examples", "demo-cluster"))):
        for name in sorted(files):
            if not name.endswith((".yaml", ".yml", ".json")):
                continue
            with open(os.path.join(folder, name)) as f:
                for document in yaml.safe_load_all(f):
                    if not isinstance(document, dict) or "kind" not in document:
                        continue
                    if document["kind"].endswith("List"):
                        objects += document.get("items") or []
                    else:
                        objects.append(document)
    return objects


def load_demo(cluster):
    """Creates the demo's objects; returns how many were created and the refusals."""
    objects = demo_objects()
    resources = {}
    for api_version in sorted({o["apiVersion"] for o in objects}):
        path = f"/api/{api_version}" if "/" not in api_version else f"/apis/{api_version}"
        status, listed = cluster.call("GET", path)
        if status != 200:
            continue
        for r in listed["resources"]:
            if "/" not in r["name"]:
                resources[(api_version, r["kind"])] = (path, r["name"], r["namespaced"])
    for ns in sorted({o["metadata"].get("namespace") for o in objects} - {None}):
        cluster.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
    created, refused = 0, []
    for obj in objects:
        where = resources.get((obj["apiVersion"], obj["kind"]))
        if where is None:
            refused.append(f"{obj['kind']} {obj['metadata']['name']}: not served")
            continue
        base, plural, namespaced = where
        collection = base + (f"/namespaces/{obj['metadata']['namespace']}" if namespaced else "") + "/" + plural
        status_block = obj.pop("status", None)
        for field in ("uid", "resourceVersion", "creationTimestamp"):
            obj["metadata"].pop(field, None)
        code, made = cluster.call("POST", collection, obj)
        if code not in (200, 201):
            refused.append(f"POST {collection} {obj['metadata']['name']}: {code} {made}")
            continue
        created += 1
        if status_block is not None:
            made["status"] = status_block
            code, written = cluster.call("PUT", f"{collection}/{obj['metadata']['name']}/status", made)
            if code != 200:
                refused.append(f"PUT {collection}/{obj['metadata']['name']}/status: {code} {written}")
    return created, len(objects), refused


def grant_reader_team_a(cluster):
    """sextant-reader: Kueue's kinds and the core kinds in team-a, nothing cluster-wide."""
    rules = [{"apiGroups": ["kueue.x-k8s.io"], "resources": ["*"], "verbs": ["get", "list", "watch"]},
             {"apiGroups": ["", "batch"], "resources": ["pods", "jobs"], "verbs": ["get", "list", "watch"]}]
    cluster.call("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/roles",
                 {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                  "metadata": {"name": "sextant-reader", "namespace": "team-a"}, "rules": rules})
    cluster.call("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings",
                 {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
                  "metadata": {"name": "sextant-reader", "namespace": "team-a"},
                  "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "sextant-reader"},
                  "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "sextant-reader"}]})


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    sys.exit(f"schemathesis_auth: {what} within {seconds} s")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sextantd = sys.argv[1]
    build = subprocess.run([os.path.join(ROOT, "tests", "apiserver", "build.sh")])
    if build.returncode != 0:
        sys.exit(77 if build.returncode == 77 else 1)
    crds = subprocess.run([os.path.join(ROOT, "tests", "upstream", "fetch.sh")] + CRD_SETS, check=True,
                          capture_output=True, text=True).stdout.split()
    work = tempfile.mkdtemp(prefix="schemathesis-auth.")
    folder = os.path.join(work, "cluster")
    arguments = [os.path.join(ROOT, "tests", "apiserver", "bin", "testcluster"), "--dir", folder]
    for crd in crds:
        arguments += ["--crds", crd]
    with open(os.path.join(work, "testcluster.out"), "w") as log:
        testcluster = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT)
    daemon = None
    status = 1
    try:
        wait_for(lambda: os.path.exists(os.path.join(folder, "ready")) or testcluster.poll() is not None, 300,
                 "the test cluster was not ready")
        if testcluster.poll() is not None:
            sys.exit(f"schemathesis_auth: the test cluster exited ({work}/testcluster.out)")
        cluster = Cluster(folder)
        created, total, refused = load_demo(cluster)
        for line in refused:
            print(f"schemathesis_auth: not loaded: {line}")
        if created < total * 3 // 4:
            sys.exit(f"schemathesis_auth: only {created} of {total} demo objects were created")
        grant_reader_team_a(cluster)
        port = subprocess.run([sys.executable, "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); "
                               "print(s.getsockname()[1])"], check=True, capture_output=True, text=True).stdout.strip()
        url = f"http://127.0.0.1:{port}"
        with open(os.path.join(work, "sextantd.log"), "w") as log:
            daemon = subprocess.Popen([sextantd, "--kubeconfig", os.path.join(folder, "kubeconfig-token.yaml"),
                                       "--auth=kubernetes", "--listen", f"127.0.0.1:{port}"],
                                      stdout=log, stderr=subprocess.STDOUT)
        print(f"schemathesis_auth: {created} of {total} demo objects loaded; sextantd --auth=kubernetes at {url}",
              flush=True)
        runs = [("the cluster's admin", ["--token-file", os.path.join(folder, "admin.token")]),
                ("sextant-reader (team-a's Kueue, pods and jobs)", ["--token-file", os.path.join(folder, "reader.token")]),
                ("no token", [])]
        status = 0
        for who, token in runs:
            print(f"schemathesis_auth: as {who}", flush=True)
            run = subprocess.run([sys.executable, os.path.join(HERE, "schemathesis_run.py"), "--url", url,
                                  "--skip-logs"] + token)
            status = status or run.returncode
    finally:
        if daemon is not None:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=30)
        testcluster.send_signal(signal.SIGTERM)
        try:
            testcluster.wait(timeout=60)
        except subprocess.TimeoutExpired:
            testcluster.kill()
        if status != 0:
            print(f"schemathesis_auth: logs kept in {work}", file=sys.stderr)
        else:
            subprocess.run(["rm", "-rf", work])
    sys.exit(status)


if __name__ == "__main__":
    main()
