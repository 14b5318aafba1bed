#!/usr/bin/env python3
"""Writes a large, realistic cluster as API-server list bodies (compact JSON), seeded.

Shapes follow the CRD schemas (Kueue v1beta2, resource.k8s.io/v1, core/v1) and what the
servers and controllers write: Workloads with 1-3 pod sets holding full pod templates,
conditions, admissions and managedFields; Pods with managedFields and status; Nodes with the
GPU Operator's labels; one ResourceSlice of 8 GPUs per node; ResourceClaims, half allocated.

    gen_cluster.py OUT_DIR [--scale 1.0]

OUT_DIR gets one typed list per kind (workloads.json is a WorkloadList, ...): a snapshot
directory for `sextantd --snapshot`, and the objects bench/scale/load.py creates in the test
API server.
"""
import json
import os
import random
import sys

T0 = "2026-11-29T08:00:00Z"


def managed(manager, fields, operation="Update", subresource=None):
    entry = {"manager": manager, "operation": operation, "apiVersion": "v1", "time": T0,
             "fieldsType": "FieldsV1", "fieldsV1": fields}
    if subresource:
        entry["subresource"] = subresource
    return entry


def uid(prefix, i):
    return f"{prefix:08x}-{(i >> 16) & 0xffff:04x}-4000-8000-{i:012x}"


def container(rng, name, gpus):
    env = [{"name": f"ENV_{e}", "value": f"value-{rng.randrange(10**6)}"} for e in range(rng.randrange(6, 14))]
    requests = {"cpu": str(rng.choice([2, 4, 8, 16])), "memory": f"{rng.choice([8, 16, 32, 64])}Gi"}
    limits = {}
    if gpus:
        requests["nvidia.com/gpu"] = str(gpus)
        limits["nvidia.com/gpu"] = str(gpus)
    return {"name": name, "image": f"registry.example.com/ml/{name}:{rng.randrange(1, 9)}.{rng.randrange(10)}",
            "command": ["python", "-m", f"{name}.main"], "args": ["--epochs", str(rng.randrange(1, 100))],
            "env": env, "resources": {"requests": requests, "limits": limits},
            "volumeMounts": [{"name": "data", "mountPath": "/data"}, {"name": "shm", "mountPath": "/dev/shm"}],
            "imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File"}


def pod_template(rng, gpus):
    return {"metadata": {"labels": {"app": "trainer"}},
            "spec": {"restartPolicy": "Never", "containers": [container(rng, "trainer", gpus)] +
                     ([container(rng, "sidecar", 0)] if rng.random() < 0.5 else []),
                     "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "datasets"}},
                                 {"name": "shm", "emptyDir": {"medium": "Memory"}}],
                     "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
                     "nodeSelector": {"nvidia.com/gpu.present": "true"}, "schedulerName": "default-scheduler",
                     "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst"}}


def workloads(rng, n, namespaces, local_queues):
    for i in range(n):
        ns = namespaces[i % len(namespaces)]
        lq = local_queues[ns][i % len(local_queues[ns])]
        cq = lq[1]
        podsets = []
        for p in range(rng.choice([1, 1, 2, 3])):
            podsets.append({"name": ["main", "workers", "launcher"][p], "count": rng.randrange(1, 9),
                            "template": pod_template(rng, rng.choice([0, 1, 2, 4, 8]))})
        admitted = rng.random() < 0.6
        conditions = []
        status = {}
        if admitted:
            conditions = [
                {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
                 "message": f"Quota reserved in ClusterQueue {cq}", "lastTransitionTime": T0},
                {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "The workload is admitted",
                 "lastTransitionTime": T0}]
            status["admission"] = {"clusterQueue": cq, "podSetAssignments": [
                {"name": ps["name"], "count": ps["count"], "flavors": {"cpu": "a100", "memory": "a100",
                                                                      "nvidia.com/gpu": "a100"},
                 "resourceUsage": {"cpu": str(8 * ps["count"]), "memory": f"{32 * ps['count']}Gi"}}
                for ps in podsets]}
        else:
            conditions = [{"type": "QuotaReserved", "status": "False", "reason": "Pending",
                           "message": "couldn't assign flavors to pod set main: insufficient unused quota for "
                                      "nvidia.com/gpu in flavor a100, 4 more needed", "lastTransitionTime": T0}]
        status["conditions"] = conditions
        name = f"job-train-{i:05d}-{rng.randrange(16**5):05x}"
        yield {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
               "metadata": {"name": name, "namespace": ns, "uid": uid(0x5d0c7e21, i),
                            "resourceVersion": str(1000 + i), "generation": 1, "creationTimestamp": T0,
                            "labels": {"kueue.x-k8s.io/job-uid": uid(0x9a3e55c1, i), "team": ns},
                            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": name[4:],
                                                 "uid": uid(0x9a3e55c1, i), "controller": True,
                                                 "blockOwnerDeletion": True}],
                            "managedFields": [
                                managed("kueue", {"f:metadata": {"f:labels": {".": {}, "f:kueue.x-k8s.io/job-uid": {}},
                                                                 "f:ownerReferences": {".": {}}},
                                                  "f:spec": {".": {}, "f:podSets": {}, "f:queueName": {},
                                                             "f:priority": {}}}),
                                managed("kueue-admission", {"f:status": {"f:admission": {".": {}, "f:clusterQueue": {},
                                                                                         "f:podSetAssignments": {}},
                                                                         "f:conditions": {".": {}}}},
                                        subresource="status")]},
               "spec": {"queueName": lq[0], "podSets": podsets, "priority": rng.choice([0, 100, 1000]),
                        "active": True},
               "status": status}


def pods(rng, n, namespaces, nodes):
    for i in range(n):
        ns = namespaces[i % len(namespaces)]
        running = rng.random() < 0.85
        name = f"trainer-{i:05d}-{rng.randrange(16**5):05x}"
        status = {"phase": "Running" if running else "Pending", "qosClass": "Burstable"}
        if running:
            status.update({"hostIP": "10.1.0.1", "podIP": f"10.2.{i // 250}.{i % 250}", "startTime": T0,
                           "conditions": [{"type": t, "status": "True", "lastTransitionTime": T0}
                                          for t in ["PodReadyToStartContainers", "Initialized", "Ready",
                                                    "ContainersReady", "PodScheduled"]],
                           "containerStatuses": [{"name": "trainer", "ready": True, "restartCount": 0,
                                                  "image": "registry.example.com/ml/trainer:1.0",
                                                  "imageID": "registry.example.com/ml/trainer@sha256:" + "ab" * 32,
                                                  "containerID": "containerd://" + "cd" * 32, "started": True,
                                                  "state": {"running": {"startedAt": T0}}}]})
        else:
            status["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                     "message": "0/500 nodes are available: 500 Insufficient nvidia.com/gpu.",
                                     "lastTransitionTime": T0}]
        spec = pod_template(rng, rng.choice([0, 1, 8]))["spec"]
        if running:
            spec["nodeName"] = nodes[i % len(nodes)]
        yield {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": name, "namespace": ns, "uid": uid(0x70d00000, i), "resourceVersion": str(10**6 + i),
                            "creationTimestamp": T0,
                            "labels": {"app": "trainer", "job-name": name[:13], "team": ns,
                                       "kueue.x-k8s.io/queue-name": "training"},
                            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": name[:13],
                                                 "uid": uid(0x9a3e55c1, i % 5000), "controller": True,
                                                 "blockOwnerDeletion": True}],
                            "managedFields": [
                                managed("kube-controller-manager", {"f:metadata": {"f:labels": {".": {}}},
                                                                    "f:spec": {"f:containers": {}, "f:volumes": {}}}),
                                managed("kubelet", {"f:status": {"f:conditions": {}, "f:containerStatuses": {},
                                                                 "f:phase": {}, "f:podIP": {}}},
                                        subresource="status")]},
               "spec": spec, "status": status}


def node(i):
    name = f"gpu-node-{i:03d}"
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "uid": uid(0x0e0c8a9e, i), "resourceVersion": str(2 * 10**6 + i),
                         "creationTimestamp": T0,
                         "labels": {"kubernetes.io/hostname": name, "nvidia.com/gpu.present": "true",
                                    "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.count": "8",
                                    "nvidia.com/gpu.memory": "81920", "nvidia.com/cuda.driver.major": "550",
                                    "nvidia.com/gpu.deploy.driver": "true", "nvidia.com/mig.capable": "true",
                                    "topology.kubernetes.io/zone": f"zone-{i % 3}"},
                         "managedFields": [managed("kubelet", {"f:status": {"f:conditions": {}}}, subresource="status")]},
            "spec": {"podCIDR": f"10.2.{i % 250}.0/24", "providerID": f"cloud://{name}"},
            "status": {"capacity": {"cpu": "96", "memory": "1Ti", "nvidia.com/gpu": "8", "pods": "110"},
                       "allocatable": {"cpu": "95", "memory": "1000Gi", "nvidia.com/gpu": "8", "pods": "110"},
                       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                                       "message": "kubelet is posting ready status", "lastHeartbeatTime": T0,
                                       "lastTransitionTime": T0}],
                       "nodeInfo": {"kubeletVersion": "v1.37.2", "containerRuntimeVersion": "containerd://2.1.0"}}}


def slice_of(i):
    name = f"gpu-node-{i:03d}"
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
            "metadata": {"name": f"{name}-gpu.nvidia.com-{i:05x}", "uid": uid(0x7d3c0f5a, i),
                         "resourceVersion": str(3 * 10**6 + i), "creationTimestamp": T0,
                         "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": name,
                                              "uid": uid(0x0e0c8a9e, i), "controller": True}]},
            "spec": {"driver": "gpu.nvidia.com", "nodeName": name,
                     "pool": {"name": name, "generation": 1, "resourceSliceCount": 1},
                     "devices": [{"name": f"gpu-{d}", "attributes": {
                         "type": {"string": "gpu"}, "uuid": {"string": f"GPU-{i:08x}-{d:04x}"},
                         "productName": {"string": "NVIDIA A100-SXM4-80GB"}, "brand": {"string": "Nvidia"},
                         "architecture": {"string": "Ampere"}, "cudaComputeCapability": {"version": "8.0.0"},
                         "driverVersion": {"version": "550.127.8"}, "index": {"int": d}},
                                  "capacity": {"memory": {"value": "80Gi"}}} for d in range(8)]}}


def claim(rng, i, namespaces):
    ns = namespaces[i % len(namespaces)]
    allocated = i % 2 == 0
    body = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": f"trainer-{i:05d}-gpu", "namespace": ns, "uid": uid(0x3c1a0000, i),
                         "resourceVersion": str(4 * 10**6 + i), "creationTimestamp": T0},
            "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
                "deviceClassName": "gpu.nvidia.com", "allocationMode": "ExactCount", "count": 1}}]}}}
    if allocated:
        node_index = i % 500
        body["status"] = {"allocation": {"devices": {"results": [
            {"request": "gpu", "driver": "gpu.nvidia.com", "pool": f"gpu-node-{node_index:03d}",
             "device": f"gpu-{(i // 500) % 8}"}]},
            "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": [f"gpu-node-{node_index:03d}"]}]}]}}}
    return body


def cluster_queue(i):
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
            "metadata": {"name": f"cq-{i:02d}", "uid": uid(0x7c1f0a52, i), "resourceVersion": str(5 * 10**6 + i),
                         "creationTimestamp": T0},
            "spec": {"cohortName": f"cohort-{i % 4}", "namespaceSelector": {},
                     "preemption": {"reclaimWithinCohort": "Any", "withinClusterQueue": "LowerPriority"},
                     "resourceGroups": [{"coveredResources": ["cpu", "memory", "nvidia.com/gpu"], "flavors": [
                         {"name": "a100", "resources": [{"name": "cpu", "nominalQuota": 512},
                                                         {"name": "memory", "nominalQuota": "4Ti"},
                                                         {"name": "nvidia.com/gpu", "nominalQuota": 64,
                                                          "borrowingLimit": 16}]}]}]},
            "status": {"conditions": [{"type": "Active", "status": "True", "reason": "Ready",
                                       "message": "Can admit new workloads", "lastTransitionTime": T0}],
                       "pendingWorkloads": 100, "reservingWorkloads": 150, "admittedWorkloads": 150,
                       "flavorsReservation": [{"name": "a100", "resources": [
                           {"name": "cpu", "total": "480"}, {"name": "memory", "total": "3Ti"},
                           {"name": "nvidia.com/gpu", "total": "64", "borrowed": "0"}]}]}}


def write_list(out, filename, api_version, kind, items):
    with open(os.path.join(out, filename), "w") as f:
        f.write('{"kind":"%sList","apiVersion":"%s","metadata":{"resourceVersion":"9000000"},"items":[' %
                (kind, api_version))
        for n, item in enumerate(items):
            if n:
                f.write(",")
            del item["apiVersion"], item["kind"]  # typed lists omit them, as the API server writes
            f.write(json.dumps(item, separators=(",", ":")))
        f.write("]}\n")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    out = sys.argv[1]
    scale = float(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--scale" else 1.0
    n = lambda count: max(1, int(count * scale))
    os.makedirs(out, exist_ok=True)
    rng = random.Random(11)
    namespaces = [f"team-{i:02d}" for i in range(50)]
    nodes = [f"gpu-node-{i:03d}" for i in range(n(500))]
    local_queues = {ns: [(f"lq-{j}", f"cq-{(k * 4 + j) % 20:02d}") for j in range(4)]
                    for k, ns in enumerate(namespaces)}
    write_list(out, "namespaces.json", "v1", "Namespace",
               ({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "uid": uid(0x11, k)}}
                for k, ns in enumerate(namespaces)))
    write_list(out, "resourceflavors.json", "kueue.x-k8s.io/v1beta2", "ResourceFlavor",
               ({"apiVersion": "v1", "kind": "x", "metadata": {"name": f, "uid": uid(0x22, k)},
                 "spec": {"nodeLabels": {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"}}}
                for k, f in enumerate(["a100", "h100"])))
    write_list(out, "clusterqueues.json", "kueue.x-k8s.io/v1beta2", "ClusterQueue",
               (cluster_queue(i) for i in range(20)))
    write_list(out, "localqueues.json", "kueue.x-k8s.io/v1beta2", "LocalQueue",
               ({"apiVersion": "x", "kind": "x",
                 "metadata": {"name": lq, "namespace": ns, "uid": uid(0x33, k * 4 + j), "creationTimestamp": T0,
                              "resourceVersion": str(6 * 10**6 + k * 4 + j)},
                 "spec": {"clusterQueue": cq},
                 "status": {"conditions": [{"type": "Active", "status": "True", "reason": "Ready",
                                            "message": "Can submit new workloads to localQueue",
                                            "lastTransitionTime": T0}],
                            "pendingWorkloads": 10, "reservingWorkloads": 15, "admittedWorkloads": 15}}
                for k, ns in enumerate(namespaces) for j, (lq, cq) in enumerate(local_queues[ns])))
    write_list(out, "workloads.json", "kueue.x-k8s.io/v1beta2", "Workload",
               workloads(rng, n(5000), namespaces, local_queues))
    write_list(out, "pods.json", "v1", "Pod", pods(rng, n(20000), namespaces, nodes))
    write_list(out, "nodes.json", "v1", "Node", (node(i) for i in range(len(nodes))))
    write_list(out, "resourceslices.json", "resource.k8s.io/v1", "ResourceSlice",
               (slice_of(i) for i in range(len(nodes))))
    write_list(out, "resourceclaims.json", "resource.k8s.io/v1", "ResourceClaim",
               (claim(rng, i, namespaces) for i in range(n(2000))))


if __name__ == "__main__":
    main()
