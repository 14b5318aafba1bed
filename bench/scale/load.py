#!/usr/bin/env python3
"""Creates the generated cluster (gen_cluster.py's lists) in the test API server, then writes
each object's status through its status subresource, as the controllers would.

    load.py CLUSTER_DIR CLUSTER_ENV

The server writes managedFields itself (one entry per manager and subresource). Objects the
server refuses are counted and the first few reasons printed; the run goes on, and exits 1 at
the end if any were refused (run.sh then does not mark the etcd data as loaded). Fields the
CRD schema drops (the server's "unknown field" warnings) are counted and shown the same way:
they mean the generator writes what the real kind does not have.
"""
import concurrent.futures
import http.client
import json
import os
import ssl
import sys
import threading
import time

PATHS = [  # file, collection path (NS filled per object), has status
    ("namespaces.json", "/api/v1/namespaces", False),
    ("resourceflavors.json", "/apis/kueue.x-k8s.io/v1beta2/resourceflavors", False),
    ("clusterqueues.json", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues", True),
    ("localqueues.json", "/apis/kueue.x-k8s.io/v1beta2/namespaces/{ns}/localqueues", True),
    ("nodes.json", "/api/v1/nodes", True),
    ("resourceslices.json", "/apis/resource.k8s.io/v1/resourceslices", False),
    ("resourceclaims.json", "/apis/resource.k8s.io/v1/namespaces/{ns}/resourceclaims", True),
    ("workloads.json", "/apis/kueue.x-k8s.io/v1beta2/namespaces/{ns}/workloads", True),
    ("pods.json", "/api/v1/namespaces/{ns}/pods", True),
    ("jobsets.json", "/apis/jobset.x-k8s.io/v1alpha2/namespaces/{ns}/jobsets", True),
    ("rayclusters.json", "/apis/ray.io/v1/namespaces/{ns}/rayclusters", True),
    ("rayjobs.json", "/apis/ray.io/v1/namespaces/{ns}/rayjobs", True),
    ("rayservices.json", "/apis/ray.io/v1/namespaces/{ns}/rayservices", True),
    ("clusterservingruntimes.json", "/apis/serving.kserve.io/v1alpha1/clusterservingruntimes", False),
    ("servingruntimes.json", "/apis/serving.kserve.io/v1alpha1/namespaces/{ns}/servingruntimes", False),
    ("inferenceservices.json", "/apis/serving.kserve.io/v1beta1/namespaces/{ns}/inferenceservices", True),
    ("clusterpolicies.json", "/apis/nvidia.com/v1/clusterpolicies", True),
]


def main():
    cluster_dir, env_file = sys.argv[1], sys.argv[2]
    env = dict(line.strip().split("=", 1) for line in open(env_file) if "=" in line)
    host, port = env["SERVER"].split("//")[1].rsplit(":", 1)
    token = open(env["ADMIN_TOKEN_FILE"]).read().strip()
    context = ssl.create_default_context(cafile=env["CA_CRT"])
    local = threading.local()
    errors = {"count": 0, "shown": 0, "warned": 0, "warnings_shown": 0}
    lock = threading.Lock()

    def request(method, path, body):
        if not hasattr(local, "conn"):
            local.conn = http.client.HTTPSConnection(host, int(port), context=context, timeout=60)
        data = json.dumps(body, separators=(",", ":")).encode()
        headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
        for attempt in range(3):
            try:
                local.conn.request(method, path + "?fieldManager=bench-controller", data, headers)
                response = local.conn.getresponse()
                text = response.read()
                if response.getheader("Warning"):
                    warn(method, path, response.getheader("Warning"))
                return response.status, text
            except (http.client.HTTPException, OSError):
                local.conn = http.client.HTTPSConnection(host, int(port), context=context, timeout=60)
        return 0, b"connection failed"

    def warn(method, path, text):
        with lock:
            errors["warned"] += 1
            if errors["warnings_shown"] < 5:
                errors["warnings_shown"] += 1
                print(f"  warning on {method} {path}: {text[:300]}", file=sys.stderr)

    def fail(what, status, text):
        with lock:
            errors["count"] += 1
            if errors["shown"] < 5:
                errors["shown"] += 1
                print(f"  {what}: {status} {text[:300]!r}", file=sys.stderr)

    def create(collection, has_status, api_version, kind, item):
        item = dict(item)
        item["apiVersion"], item["kind"] = api_version, kind
        meta = item["metadata"] = dict(item["metadata"])
        for key in ("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"):
            meta.pop(key, None)
        path = collection.format(ns=meta.get("namespace", ""))
        status, text = request("POST", path, item)
        if status not in (200, 201):
            if status != 409:
                fail(f"create {kind} {meta['name']}", status, text)
            return
        if has_status and "status" in item:
            created = json.loads(text)
            created["status"] = item["status"]
            status, text = request("PUT", f"{path}/{meta['name']}/status", created)
            if status != 200:
                fail(f"status of {kind} {meta['name']}", status, text)

    started = time.time()
    total = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        for filename, collection, has_status in PATHS:
            with open(os.path.join(cluster_dir, filename)) as f:
                body = json.load(f)
            api_version, kind = body["apiVersion"], body["kind"][:-4]
            items = body["items"]
            list(pool.map(lambda item: create(collection, has_status, api_version, kind, item), items, chunksize=64))
            total += len(items)
            print(f"  {kind}: {len(items)} ({time.time() - started:.0f} s)", file=sys.stderr)
    print(f"loaded {total} objects in {time.time() - started:.0f} s, {errors['count']} refused, "
          f"{errors['warned']} answers with warnings", file=sys.stderr)
    sys.exit(1 if errors["count"] else 0)


if __name__ == "__main__":
    main()
