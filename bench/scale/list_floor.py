#!/usr/bin/env python3
"""How fast the API server alone hands out what a live start reads: the floor of time to ready.

    list_floor.py CLUSTER_ENV

Opens one streaming list (a watch with sendInitialEvents, what the daemon and client-go's
informers ask) per kind the informer reference reads, all at once, and reads each until the
bookmark that ends its initial events without parsing a byte. Prints
"floor_seconds=S bytes=B slowest=RESOURCE": no client can be ready sooner from this server in
its present state (its Go heap and watch cache vary from run to run by tens of seconds at the
envelope, which is why run.sh takes this, client-go and the daemon in turns).
"""
import http.client
import ssl
import sys
import threading
import time

# The kinds bench/scale/informer reads, as (path prefix, resource).
RESOURCES = [
    ("/api/v1", "pods"),
    ("/api/v1", "nodes"),
    ("/apis/resource.k8s.io/v1", "resourceslices"),
    ("/apis/resource.k8s.io/v1", "resourceclaims"),
    ("/apis/kueue.x-k8s.io/v1beta2", "workloads"),
    ("/apis/kueue.x-k8s.io/v1beta2", "clusterqueues"),
    ("/apis/kueue.x-k8s.io/v1beta2", "localqueues"),
    ("/apis/kueue.x-k8s.io/v1beta2", "resourceflavors"),
    ("/apis/jobset.x-k8s.io/v1alpha2", "jobsets"),
    ("/apis/ray.io/v1", "rayclusters"),
    ("/apis/ray.io/v1", "rayjobs"),
    ("/apis/ray.io/v1", "rayservices"),
    ("/apis/serving.kserve.io/v1beta1", "inferenceservices"),
    ("/apis/serving.kserve.io/v1alpha1", "servingruntimes"),
    ("/apis/serving.kserve.io/v1alpha1", "clusterservingruntimes"),
    ("/apis/nvidia.com/v1", "clusterpolicies"),
]
END_MARK = b"k8s.io/initial-events-end"
TIMEOUT_S = 600


def read_env(path):
    env = {}
    with open(path) as lines:
        for line in lines:
            name, sep, value = line.strip().partition("=")
            if sep:
                env[name] = value
    return env


def stream_until_end(host, port, context, token, prefix, resource, results):
    started = time.monotonic()
    conn = http.client.HTTPSConnection(host, port, context=context, timeout=TIMEOUT_S)
    conn.request(
        "GET",
        f"{prefix}/{resource}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
        "&allowWatchBookmarks=true",
        headers={"Authorization": "Bearer " + token, "Accept": "application/json"},
    )
    reply = conn.getresponse()
    if reply.status != 200:
        results[resource] = (None, 0, f"HTTP {reply.status}")
        return
    total, tail = 0, b""
    while True:
        chunk = reply.read1(1 << 20)
        if not chunk:
            results[resource] = (None, total, "ended before its initial events did")
            return
        total += len(chunk)
        if (tail + chunk).find(END_MARK) >= 0:
            break
        tail = chunk[-len(END_MARK):]
    conn.close()
    results[resource] = (time.monotonic() - started, total, "")


def main():
    env = read_env(sys.argv[1])
    host, _, port = env["SERVER"].split("//", 1)[1].partition(":")
    with open(env["ADMIN_TOKEN_FILE"]) as token_file:
        token = token_file.read().strip()
    context = ssl.create_default_context(cafile=env["CA_CRT"])
    results = {}
    threads = [
        threading.Thread(target=stream_until_end, args=(host, int(port), context, token, prefix, resource, results))
        for prefix, resource in RESOURCES
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = {name: why for name, (_, _, why) in results.items() if why}
    if failed or len(results) != len(RESOURCES):
        sys.exit(f"list_floor: not read: {failed or 'a reader died'}")
    slowest = max(results, key=lambda name: results[name][0])
    total = sum(size for _, size, _ in results.values())
    print(f"floor_seconds={results[slowest][0]:.2f} bytes={total} slowest={slowest}")


if __name__ == "__main__":
    main()
