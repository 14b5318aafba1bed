#!/usr/bin/env python3
"""How fast the API server alone hands out what a live start reads: the floor of time to ready.

    list_floor.py CLUSTER_ENV [--wire json|protobuf]

Opens one streaming list (a watch with sendInitialEvents, what the daemon and client-go's
informers ask) per kind the informer reference reads, all at once, and reads each until the
bookmark that ends its initial events without parsing a byte. Prints
"floor_seconds=S bytes=B slowest=RESOURCE wire=W": no client can be ready sooner from this server in
its present state (its Go heap and watch cache vary from run to run by tens of seconds at the
envelope, which is why run.sh takes this, client-go and the daemon in turns).

--wire protobuf asks the built-in kinds (Pods, Nodes, DRA) as protobuf, as client-go's generated
clients do; json (the default) asks everything as JSON, as sextantd does. The CRDs are JSON either
way. The two floors side by side say how much of a start the API server's JSON encoding costs.
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
# The groups whose kinds the API server can encode as protobuf (built in, not CRDs).
PROTOBUF_PREFIXES = ("/api/v1", "/apis/resource.k8s.io/v1")


def read_env(path):
    env = {}
    with open(path) as lines:
        for line in lines:
            name, sep, value = line.strip().partition("=")
            if sep:
                env[name] = value
    return env


def retry_after_seconds(header):
    """A 429's Retry-After in seconds, kept between half a second and ten."""
    try:
        return min(10.0, max(0.5, float(header or 1)))
    except ValueError:  # an HTTP date, which the API server does not send
        return 1.0


def stream_until_end(host, port, context, token, prefix, resource, wire, results):
    """Reads one streaming list to its end. A 429 (the server's watch cache not initialized yet,
    as right after it starts, or API Priority and Fairness) is asked again after its Retry-After,
    as every client must; the time counts from the first try."""
    started = time.monotonic()
    accept = "application/json"
    if wire == "protobuf" and prefix in PROTOBUF_PREFIXES:
        accept = "application/vnd.kubernetes.protobuf"
    while True:
        conn = http.client.HTTPSConnection(host, port, context=context, timeout=TIMEOUT_S)
        conn.request(
            "GET",
            f"{prefix}/{resource}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
            "&allowWatchBookmarks=true",
            headers={"Authorization": "Bearer " + token, "Accept": accept},
        )
        reply = conn.getresponse()
        if reply.status != 429 or time.monotonic() - started > TIMEOUT_S:
            break
        reply.read()
        conn.close()
        time.sleep(retry_after_seconds(reply.getheader("Retry-After")))
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
    wire = "json"
    if len(sys.argv) == 4 and sys.argv[2] == "--wire" and sys.argv[3] in ("json", "protobuf"):
        wire = sys.argv[3]
    elif len(sys.argv) != 2:
        sys.exit("usage: list_floor.py CLUSTER_ENV [--wire json|protobuf]")
    env = read_env(sys.argv[1])
    host, _, port = env["SERVER"].split("//", 1)[1].partition(":")
    with open(env["ADMIN_TOKEN_FILE"]) as token_file:
        token = token_file.read().strip()
    context = ssl.create_default_context(cafile=env["CA_CRT"])
    results = {}
    threads = [
        threading.Thread(target=stream_until_end, args=(host, int(port), context, token, prefix, resource, wire, results))
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
    print(f"floor_seconds={results[slowest][0]:.2f} bytes={total} slowest={slowest} wire={wire}")


if __name__ == "__main__":
    main()
