#!/usr/bin/env python3
"""Writes a large, realistic cluster as API-server list bodies (compact JSON), seeded.

Shapes follow the CRD schemas (Kueue v1beta2, resource.k8s.io/v1, core/v1, JobSet v1alpha2,
KubeRay v1, KServe v1beta1/v1alpha1, GPU Operator v1) and what the servers and controllers
write: Workloads with 1-3 pod sets holding full pod templates, conditions, admissions and
managedFields; Pods with managedFields and status; Nodes with the GPU Operator's labels; one
ResourceSlice of 8 GPUs per node; ResourceClaims, half allocated; JobSets (a driver and a
worker Job template each) running, completed, failed or suspended by Kueue; Ray Clusters with
head and worker pod templates, a few Ray Jobs and Ray Services; Inference Services (raw and
serverless, ready, loading or failed to load) on KServe's cluster runtimes or a namespaced
vLLM one; the GPU Operator's ClusterPolicy, ready. Every object round-trips through the test
API server with these CRDs unchanged: nothing pruned, no default left to add.

    gen_cluster.py OUT_DIR [--scale 1.0 | --envelope]

--envelope: the Kubernetes scalability envelope (sig-scalability's thresholds) as an AI cluster
fills it: 5 000 Nodes (500 with 8 GPUs each, as 4 ResourceSlices of 2), 150 000 Pods of two
containers (300 000 containers), 500 namespaces, 5 000 Workloads, 500 Cluster Queues and 2 000
Local Queues, 20 000 Resource Claims, 1 000 JobSets, 500 Ray Clusters, 500 Inference Services.

OUT_DIR gets one typed list per kind (workloads.json is a WorkloadList, ...): a snapshot
directory for `sextantd --snapshot`, and the objects bench/scale/load.py creates in the test
API server.
"""
import json
import os
import random
import sys

T0 = "2026-11-29T08:00:00Z"


def managed(manager, fields, operation="Update", subresource=None, api_version="v1"):
    entry = {"manager": manager, "operation": operation, "apiVersion": api_version, "time": T0,
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


def pod_template(rng, gpus, sidecars=0.5):
    return {"metadata": {"labels": {"app": "trainer"}},
            "spec": {"restartPolicy": "Never", "containers": [container(rng, "trainer", gpus)] +
                     ([container(rng, "sidecar", 0)] if rng.random() < sidecars else []),
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


def pods(rng, n, namespaces, nodes, cpu_nodes, sidecars):
    for i in range(n):
        ns = namespaces[i % len(namespaces)]
        running = rng.random() < 0.85
        name = f"trainer-{i:05d}-{rng.randrange(16**5):05x}"
        status = {"phase": "Running" if running else "Pending", "qosClass": "Burstable"}
        if running:
            pod_ip = f"10.{2 + i // 62500}.{(i // 250) % 250}.{i % 250}"
            status.update({"hostIP": "10.1.0.1", "podIP": pod_ip, "startTime": T0,
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
                                     "message": f"0/{len(nodes) + len(cpu_nodes)} nodes are available: "
                                                f"{len(nodes)} Insufficient nvidia.com/gpu.",
                                     "lastTransitionTime": T0}]
        gpus = rng.choice([0, 1, 8])
        spec = pod_template(rng, gpus, sidecars)["spec"]
        if running:
            # Pods without GPUs run on the CPU nodes, when there are any.
            on = cpu_nodes if cpu_nodes and not gpus else nodes
            spec["nodeName"] = on[i % len(on)]
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


def node(i, gpu=True):
    name = f"gpu-node-{i:03d}" if gpu else f"cpu-node-{i:04d}"
    labels = {"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": f"zone-{i % 3}"}
    if gpu:
        labels = {"kubernetes.io/hostname": name, "nvidia.com/gpu.present": "true",
                  "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.count": "8",
                  "nvidia.com/gpu.memory": "81920", "nvidia.com/cuda.driver.major": "550",
                  "nvidia.com/gpu.deploy.driver": "true", "nvidia.com/mig.capable": "true",
                  "topology.kubernetes.io/zone": f"zone-{i % 3}"}
    gpus = {"nvidia.com/gpu": "8"} if gpu else {}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "uid": uid(0x0e0c8a9e if gpu else 0x0e0c0000, i),
                         "resourceVersion": str((2 if gpu else 7) * 10**6 + i), "creationTimestamp": T0,
                         "labels": labels,
                         "managedFields": [managed("kubelet", {"f:status": {"f:conditions": {}}}, subresource="status")]},
            "spec": {"podCIDR": f"10.{2 + i // 250}.{i % 250}.0/24" if not gpu else f"10.2.{i % 250}.0/24",
                     "providerID": f"cloud://{name}"},
            "status": {"capacity": {"cpu": "96", "memory": "1Ti", **gpus, "pods": "110"},
                       "allocatable": {"cpu": "95", "memory": "1000Gi", **gpus, "pods": "110"},
                       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                                       "message": "kubelet is posting ready status", "lastHeartbeatTime": T0,
                                       "lastTransitionTime": T0}],
                       "nodeInfo": {"kubeletVersion": "v1.37.2", "containerRuntimeVersion": "containerd://2.1.0"}}}


def slice_of(i, part=0, parts=1):
    """Node i's GPUs (8) as slice `part` of `parts`, each with its share of the devices."""
    name = f"gpu-node-{i:03d}"
    per_slice = 8 // parts
    suffix = f"{i:05x}" if parts == 1 else f"{i:05x}-{part}"
    number = i if parts == 1 else i * parts + part
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
            "metadata": {"name": f"{name}-gpu.nvidia.com-{suffix}", "uid": uid(0x7d3c0f5a, number),
                         "resourceVersion": str(3 * 10**6 + number), "creationTimestamp": T0,
                         "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": name,
                                              "uid": uid(0x0e0c8a9e, i), "controller": True}]},
            "spec": {"driver": "gpu.nvidia.com", "nodeName": name,
                     "pool": {"name": name, "generation": 1, "resourceSliceCount": parts},
                     "devices": [{"name": f"gpu-{d}", "attributes": {
                         "type": {"string": "gpu"}, "uuid": {"string": f"GPU-{i:08x}-{d:04x}"},
                         "productName": {"string": "NVIDIA A100-SXM4-80GB"}, "brand": {"string": "Nvidia"},
                         "architecture": {"string": "Ampere"}, "cudaComputeCapability": {"version": "8.0.0"},
                         "driverVersion": {"version": "550.127.8"}, "index": {"int": d}},
                                  "capacity": {"memory": {"value": "80Gi"}}}
                                 for d in range(part * per_slice, (part + 1) * per_slice)]}}


def claim(rng, i, namespaces, gpu_nodes=500):
    ns = namespaces[i % len(namespaces)]
    allocated = i % 2 == 0
    body = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": f"trainer-{i:05d}-gpu", "namespace": ns, "uid": uid(0x3c1a0000, i),
                         "resourceVersion": str(4 * 10**6 + i), "creationTimestamp": T0},
            "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
                "deviceClassName": "gpu.nvidia.com", "allocationMode": "ExactCount", "count": 1}}]}}}
    if allocated:
        node_index = i % gpu_nodes
        body["status"] = {"allocation": {"devices": {"results": [
            {"request": "gpu", "driver": "gpu.nvidia.com", "pool": f"gpu-node-{node_index:03d}",
             "device": f"gpu-{(i // gpu_nodes) % 8}"}]},
            "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": [f"gpu-node-{node_index:03d}"]}]}]}}}
    return body


def cluster_queue(i, cohorts=4):
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
            "metadata": {"name": f"cq-{i:02d}", "uid": uid(0x7c1f0a52, i), "resourceVersion": str(5 * 10**6 + i),
                         "creationTimestamp": T0},
            "spec": {"cohortName": f"cohort-{i % cohorts}", "namespaceSelector": {},
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


def condition(kind, status, reason, message="", generation=1):
    """A metav1.Condition as the JobSet, KubeRay and GPU Operator controllers write them."""
    return {"type": kind, "status": status, "observedGeneration": generation, "lastTransitionTime": T0,
            "reason": reason, "message": message}


def cr_metadata(name, ns, uid_value, rv, labels, managed_fields, annotations=None):
    meta = {"name": name, "uid": uid_value, "resourceVersion": str(rv), "generation": 1,
            "creationTimestamp": T0, "labels": labels, "managedFields": managed_fields}
    if ns:
        meta["namespace"] = ns
    if annotations:
        meta["annotations"] = annotations
    return meta


def jobset(rng, i, namespaces, local_queues):
    ns = namespaces[i % len(namespaces)]
    name = f"llm-pretrain-{i:03d}-{rng.randrange(16**5):05x}"
    workers = rng.choice([1, 2, 4])
    hosts = rng.choice([2, 4, 8])
    replicated = []
    for rj, replicas, parallelism, gpus in (("driver", 1, 1, 0), ("workers", workers, hosts, 8)):
        template = pod_template(rng, gpus)
        template["metadata"]["labels"].update({"jobset.sigs.k8s.io/jobset-name": name,
                                               "jobset.sigs.k8s.io/replicatedjob-name": rj})
        template["spec"]["subdomain"] = name
        replicated.append({"name": rj, "groupName": "default", "replicas": replicas, "template": {
            "metadata": {"labels": {"jobset.sigs.k8s.io/replicatedjob-name": rj}},
            "spec": {"parallelism": parallelism, "completions": parallelism, "backoffLimit": 0,
                     "completionMode": "Indexed", "template": template}}})
    state = rng.choices(["running", "completed", "failed", "suspended"], [55, 25, 10, 10])[0]
    restarts = rng.choice([0, 0, 0, 1, 2]) if state != "failed" else 3
    status = {"restarts": restarts, "restartsCountTowardsMax": restarts, "replicatedJobsStatus": []}
    for rj in replicated:
        count = rj["replicas"]
        counts = {"running": {"ready": count, "active": count},
                  "completed": {"succeeded": count},
                  "failed": {"failed": 1, "active": count - 1},
                  "suspended": {"suspended": count}}[state]
        status["replicatedJobsStatus"].append({"name": rj["name"], **{k: counts.get(k, 0) for k in (
            "ready", "succeeded", "failed", "active", "suspended")}})
    if state == "running":
        status["conditions"] = [condition("Suspended", "False", "ResumeJobs", "jobset is resumed")]
    elif state == "completed":
        status["conditions"] = [condition("Suspended", "False", "ResumeJobs", "jobset is resumed"),
                                condition("Completed", "True", "AllJobsCompleted", "jobset completed successfully")]
        status["terminalState"] = "Completed"
    elif state == "failed":
        status["conditions"] = [condition("Suspended", "False", "ResumeJobs", "jobset is resumed"),
                                condition("Failed", "True", "ReachedMaxRestarts",
                                          "jobset failed due to reaching max number of restarts")]
        status["terminalState"] = "Failed"
    else:
        status["conditions"] = [condition("Suspended", "True", "SuspendedJobs", "jobset is suspended")]
    api = "jobset.x-k8s.io/v1alpha2"
    lq = local_queues[ns][i % len(local_queues[ns])][0]
    return {"apiVersion": api, "kind": "JobSet",
            "metadata": cr_metadata(name, ns, uid(0x1b5e7000, i), 7 * 10**6 + i,
                                    {"kueue.x-k8s.io/queue-name": lq, "team": ns}, [
                managed("kubectl-client-side-apply", {"f:metadata": {"f:labels": {".": {}, "f:team": {},
                                                                                   "f:kueue.x-k8s.io/queue-name": {}}},
                                                      "f:spec": {".": {}, "f:failurePolicy": {}, "f:network": {},
                                                                 "f:replicatedJobs": {}, "f:successPolicy": {}}},
                        api_version=api),
                managed("kueue", {"f:spec": {"f:suspend": {}}}, api_version=api),
                managed("manager", {"f:status": {".": {}, "f:conditions": {}, "f:replicatedJobsStatus": {},
                                                 "f:restarts": {}, "f:restartsCountTowardsMax": {}}},
                        subresource="status", api_version=api)]),
            "spec": {"replicatedJobs": replicated,
                     "network": {"enableDNSHostnames": True, "subdomain": name, "publishNotReadyAddresses": True},
                     "successPolicy": {"operator": "All", "targetReplicatedJobs": ["workers"]},
                     "failurePolicy": {"maxRestarts": 3, "restartStrategy": "Recreate"},
                     "startupPolicy": {"startupPolicyOrder": "AnyOrder"},
                     "suspend": state == "suspended"},
            "status": status}


RAY_IMAGE = "rayproject/ray:2.46.0-py311-gpu"
RAY_PORTS = [("gcs-server", 6379), ("dashboard", 8265), ("client", 10001), ("metrics", 8080), ("serve", 8000)]


def ray_container(rng, name, cpu, memory, gpus, ports):
    resources = {"cpu": str(cpu), "memory": memory}
    if gpus:
        resources["nvidia.com/gpu"] = str(gpus)
    body = {"name": name, "image": RAY_IMAGE, "imagePullPolicy": "IfNotPresent",
            "env": [{"name": "RAY_GRAFANA_HOST", "value": "http://grafana.monitoring.svc:80"},
                    {"name": "RAY_memory_monitor_refresh_ms", "value": "0"},
                    {"name": "HF_HOME", "value": "/data/hf-cache"},
                    {"name": "RAY_BUILD_ID", "value": f"b{rng.randrange(10**6):06d}"}],
            "resources": {"requests": dict(resources), "limits": dict(resources)},
            "volumeMounts": [{"name": "ray-logs", "mountPath": "/tmp/ray"}, {"name": "data", "mountPath": "/data"}],
            "lifecycle": {"preStop": {"exec": {"command": ["/bin/sh", "-c", "ray stop"]}}},
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if ports:
        body["ports"] = [{"name": port_name, "containerPort": port, "protocol": "TCP"} for port_name, port in ports]
    return body


def ray_pod_spec(containers, gpus):
    spec = {"containers": containers, "restartPolicy": "Always", "schedulerName": "default-scheduler",
            "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
            "volumes": [{"name": "ray-logs", "emptyDir": {}},
                        {"name": "data", "persistentVolumeClaim": {"claimName": "datasets"}}]}
    if gpus:
        spec["tolerations"] = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
        spec["nodeSelector"] = {"nvidia.com/gpu.present": "true"}
    return spec


def ray_cluster_spec(rng, groups):
    spec = {"rayVersion": "2.46.0", "enableInTreeAutoscaling": rng.random() < 0.3,
            "headGroupSpec": {"serviceType": "ClusterIP", "rayStartParams": {"dashboard-host": "0.0.0.0",
                                                                            "num-cpus": "0"},
                              "template": {"metadata": {"labels": {"app.kubernetes.io/component": "ray-head"}},
                                           "spec": ray_pod_spec([ray_container(rng, "ray-head", 4, "16Gi", 0,
                                                                               RAY_PORTS)], 0)}},
            "workerGroupSpecs": []}
    for group, replicas, gpus in groups:
        spec["workerGroupSpecs"].append({
            "groupName": group, "replicas": replicas, "minReplicas": min(replicas, 1), "maxReplicas": replicas * 2,
            "numOfHosts": 1, "rayStartParams": {"metrics-export-port": "8080"},
            "template": {"metadata": {"labels": {"app.kubernetes.io/component": "ray-worker"}},
                         "spec": ray_pod_spec([ray_container(rng, "ray-worker", 8 * max(gpus, 1),
                                                             f"{32 * max(gpus, 1)}Gi", gpus, [])], gpus)}})
    return spec


def ray_cluster_status(name, ns, i, spec, state):
    groups = spec["workerGroupSpecs"]
    desired = sum(g["replicas"] for g in groups)
    ready = desired if state == "ready" else (0 if state == "suspended" else desired // 2)
    gpus = sum(g["replicas"] * int(g["template"]["spec"]["containers"][0]["resources"]["requests"].get(
        "nvidia.com/gpu", "0")) for g in groups)
    status = {"state": state, "desiredWorkerReplicas": desired, "availableWorkerReplicas": ready,
              "readyWorkerReplicas": ready, "minWorkerReplicas": sum(g["minReplicas"] for g in groups),
              "maxWorkerReplicas": sum(g["maxReplicas"] for g in groups),
              "desiredCPU": str(4 + sum(g["replicas"] * int(g["template"]["spec"]["containers"][0]["resources"][
                  "requests"]["cpu"]) for g in groups)),
              "desiredMemory": f"{16 + sum(g['replicas'] * int(g['template']['spec']['containers'][0]['resources']['requests']['memory'][:-2]) for g in groups)}Gi",
              "desiredGPU": str(gpus), "desiredTPU": "0", "lastUpdateTime": T0, "observedGeneration": 1,
              "endpoints": {port_name: str(port) for port_name, port in RAY_PORTS},
              "head": {"podIP": f"10.3.{i // 250}.{i % 250}", "podName": f"{name}-head-{i:05x}",
                       "serviceIP": f"10.0.{i // 250}.{i % 250 + 1}", "serviceName": f"{name}-head-svc"}}
    if state == "ready":
        status["stateTransitionTimes"] = {"ready": T0}
        status["conditions"] = [condition("HeadPodReady", "True", "HeadPodRunningAndReady"),
                                condition("RayClusterProvisioned", "True", "AllPodRunningAndReadyFirstTime")]
    elif state == "suspended":
        status["stateTransitionTimes"] = {"ready": T0, "suspended": T0}
        status["conditions"] = [condition("HeadPodReady", "False", "HeadPodNotFound"),
                                condition("RayClusterProvisioned", "False", "RayClusterPodsProvisioning"),
                                condition("RayClusterSuspended", "True", "RayClusterSuspended")]
        del status["head"]
    else:  # still provisioning: some workers cannot be placed
        del status["state"]
        status["conditions"] = [
            condition("HeadPodReady", "True", "HeadPodRunningAndReady"),
            condition("RayClusterProvisioned", "False", "RayClusterPodsProvisioning"),
            condition("ReplicaFailure", "True", "FailedCreateWorkerPod",
                      f"Failed to create worker Pod {ns}/{name}-gpu-workers-x7k2p, pods \"{name}-gpu-workers-x7k2p\" "
                      "is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=8")]
    return status


def ray_managed(api, spec_fields, manager="kuberay-operator"):
    return [managed("kubectl-client-side-apply", {"f:metadata": {"f:labels": {".": {}, "f:team": {}}},
                                                  "f:spec": {".": {f: {} for f in spec_fields}}}, api_version=api),
            managed(manager, {"f:status": {".": {}, "f:conditions": {}, "f:observedGeneration": {}}},
                    subresource="status", api_version=api)]


def ray_cluster(rng, i, namespaces):
    ns = namespaces[i % len(namespaces)]
    name = f"raycluster-{i:03d}-{rng.randrange(16**5):05x}"
    groups = [("gpu-workers", rng.choice([1, 2, 4, 8]), rng.choice([1, 4, 8]))]
    if rng.random() < 0.4:
        groups.append(("cpu-workers", rng.choice([2, 4]), 0))
    spec = ray_cluster_spec(rng, groups)
    state = rng.choices(["ready", "suspended", "provisioning"], [80, 5, 15])[0]
    if state == "suspended":
        spec["suspend"] = True
    api = "ray.io/v1"
    return {"apiVersion": api, "kind": "RayCluster",
            "metadata": cr_metadata(name, ns, uid(0x4a7c1000, i), 8 * 10**6 + i, {"team": ns},
                                    ray_managed(api, ["headGroupSpec", "rayVersion", "workerGroupSpecs"])),
            "spec": spec, "status": ray_cluster_status(name, ns, i, spec, state)}


def ray_job(rng, i, namespaces):
    ns = namespaces[i % len(namespaces)]
    name = f"rayjob-{i:03d}-{rng.randrange(16**5):05x}"
    cluster = f"{name}-raycluster-{rng.randrange(36**5):05x}"
    spec = {"entrypoint": "python /home/ray/samples/fine_tune.py --model llama-3-8b", "submissionMode": "K8sJobMode",
            "runtimeEnvYAML": "pip:\n  - torch==2.5.1\n  - transformers==4.47.0\nenv_vars:\n  NCCL_DEBUG: INFO\n",
            "shutdownAfterJobFinishes": True, "ttlSecondsAfterFinished": 600, "backoffLimit": 0,
            "rayClusterSpec": ray_cluster_spec(rng, [("gpu-workers", rng.choice([1, 2, 4]), 8)])}
    job_status, deployment = rng.choice([("RUNNING", "Running"), ("RUNNING", "Running"), ("SUCCEEDED", "Complete"),
                                         ("FAILED", "Failed"), ("PENDING", "Initializing")])
    status = {"jobId": f"{name}-{rng.randrange(36**5):05x}", "rayClusterName": cluster,
              "dashboardURL": f"{cluster}-head-svc.{ns}.svc.cluster.local:8265", "jobStatus": job_status,
              "jobDeploymentStatus": deployment, "startTime": T0, "observedGeneration": 1,
              "succeeded": int(job_status == "SUCCEEDED"), "failed": int(job_status == "FAILED"),
              "rayClusterStatus": ray_cluster_status(cluster, ns, 1000 + i, spec["rayClusterSpec"],
                                                     "provisioning" if deployment == "Initializing" else "ready")}
    if job_status != "PENDING":
        status["rayJobInfo"] = {"startTime": T0}
    if deployment in ("Complete", "Failed"):
        status["endTime"] = status["rayJobInfo"]["endTime"] = "2026-11-29T09:12:41Z"
    if job_status == "FAILED":
        status["reason"] = "AppFailed"
        status["message"] = ("Job entrypoint command failed with exit code 1, last available logs: torch.OutOfMemoryError: "
                             "CUDA out of memory. Tried to allocate 2.00 GiB")
    api = "ray.io/v1"
    return {"apiVersion": api, "kind": "RayJob",
            "metadata": cr_metadata(name, ns, uid(0x4a7c2000, i), 8 * 10**6 + 1000 + i, {"team": ns},
                                    ray_managed(api, ["entrypoint", "rayClusterSpec", "runtimeEnvYAML"])),
            "spec": spec, "status": status}


def ray_service(rng, i, namespaces):
    ns = namespaces[i % len(namespaces)]
    name = f"llm-serve-{i:02d}"
    cluster = f"{name}-raycluster-{rng.randrange(36**5):05x}"
    spec = {"serveConfigV2": (f"applications:\n  - name: llm\n    route_prefix: /\n    import_path: serve_llm:app\n"
                              f"    deployments:\n      - name: VLLMDeployment\n        num_replicas: {1 + i % 3}\n"
                              f"        ray_actor_options:\n          num_gpus: 1\n"),
            "rayClusterConfig": ray_cluster_spec(rng, [("gpu-workers", 1 + i % 3, 1)])}
    healthy = i % 5 != 4
    status = {"serviceStatus": "Running" if healthy else "", "numServeEndpoints": 1 + i % 3 if healthy else 0,
              "observedGeneration": 1, "lastUpdateTime": T0,
              "activeServiceStatus": {"rayClusterName": cluster, "applicationStatuses": {"llm": {
                  "status": "RUNNING" if healthy else "DEPLOYING", "message": "" if healthy else
                  "Deploying app 'llm'.", "serveDeploymentStatuses": {"VLLMDeployment": {
                      "status": "HEALTHY" if healthy else "UPDATING", "message": ""}}}},
                  "rayClusterStatus": ray_cluster_status(cluster, ns, 2000 + i, spec["rayClusterConfig"], "ready")},
              "pendingServiceStatus": {},
              "conditions": [condition("Ready", "True" if healthy else "False",
                                       "NonZeroServeEndpoints" if healthy else "ZeroServeEndpoints"),
                             condition("UpgradeInProgress", "False", "NoPendingCluster")]}
    api = "ray.io/v1"
    return {"apiVersion": api, "kind": "RayService",
            "metadata": cr_metadata(name, ns, uid(0x4a7c3000, i), 8 * 10**6 + 2000 + i, {"team": ns},
                                    ray_managed(api, ["rayClusterConfig", "serveConfigV2"])),
            "spec": spec, "status": status}


# (runtime name, model format, image, protocols): the cluster-wide runtimes KServe installs.
KSERVE_RUNTIMES = [("kserve-huggingfaceserver", "huggingface", "kserve/huggingfaceserver:v0.16.0", ["v2", "v1"]),
                   ("kserve-sklearnserver", "sklearn", "kserve/sklearnserver:v0.16.0", ["v1", "v2"]),
                   ("kserve-xgbserver", "xgboost", "kserve/xgbserver:v0.16.0", ["v1", "v2"]),
                   ("kserve-lgbserver", "lightgbm", "kserve/lgbserver:v0.16.0", ["v1", "v2"]),
                   ("kserve-tritonserver", "onnx", "nvcr.io/nvidia/tritonserver:24.10-py3", ["v2", "grpc-v2"]),
                   ("kserve-torchserve", "pytorch", "pytorch/torchserve-kfs:0.12.0", ["v1", "v2", "grpc-v2"])]


def runtime_spec(format_name, image, protocols, gpus):
    resources = {"requests": {"cpu": "1", "memory": "2Gi"}, "limits": {"cpu": "1", "memory": "2Gi"}}
    if gpus:
        resources = {"requests": {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": str(gpus)},
                     "limits": {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": str(gpus)}}
    return {"annotations": {"prometheus.kserve.io/port": "8080", "prometheus.kserve.io/path": "/metrics"},
            "supportedModelFormats": [{"name": format_name, "version": "1", "autoSelect": True, "priority": 1}],
            "protocolVersions": protocols, "multiModel": False,
            "containers": [{"name": "kserve-container", "image": image,
                            "args": ["--model_name={{.Name}}", "--model_dir=/mnt/models", "--http_port=8080"],
                            "resources": resources,
                            "securityContext": {"allowPrivilegeEscalation": False, "privileged": False,
                                                "runAsNonRoot": True, "capabilities": {"drop": ["ALL"]}}}]}


def serving_runtime(i, namespaces, cluster_wide):
    if cluster_wide:
        name, format_name, image, protocols = KSERVE_RUNTIMES[i]
        ns, gpus = None, 0
    else:
        name, format_name, image, protocols = "vllm-runtime", "huggingface", "vllm/vllm-openai:v0.9.2", ["v2"]
        ns, gpus = namespaces[i], 1
    api = "serving.kserve.io/v1alpha1"
    return {"apiVersion": api, "kind": "ClusterServingRuntime" if cluster_wide else "ServingRuntime",
            "metadata": cr_metadata(name, ns, uid(0x5e7f0000 + (0 if cluster_wide else 0x100), i),
                                    9 * 10**6 + (0 if cluster_wide else 100) + i,
                                    {"app.kubernetes.io/name": "kserve", "app.kubernetes.io/component": "runtime"}, [
                managed("kubectl-client-side-apply", {"f:metadata": {"f:labels": {".": {}}},
                                                      "f:spec": {".": {}, "f:containers": {},
                                                                 "f:supportedModelFormats": {}}}, api_version=api)]),
            "spec": runtime_spec(format_name, image, protocols, gpus)}


def inference_service(rng, i, namespaces):
    ns = namespaces[i % len(namespaces)]
    runtime, format_name, _, _ = KSERVE_RUNTIMES[rng.choice([0, 0, 0, 1, 2, 3, 4, 5])]
    llm = format_name == "huggingface"
    name = f"{'llm' if llm else format_name}-{i:03d}"
    namespaced_runtime = llm and i % len(namespaces) < 5 and rng.random() < 0.5
    if namespaced_runtime:
        runtime = "vllm-runtime"
    gpus = 1 if llm else 0
    resources = {"requests": {"cpu": "8" if llm else "1", "memory": "64Gi" if llm else "2Gi"},
                 "limits": {"cpu": "8" if llm else "1", "memory": "64Gi" if llm else "2Gi"}}
    if gpus:
        resources["requests"]["nvidia.com/gpu"] = resources["limits"]["nvidia.com/gpu"] = str(gpus)
    model = {"modelFormat": {"name": format_name}, "runtime": runtime, "resources": resources,
             "storageUri": "hf://meta-llama/Llama-3.1-8B-Instruct" if llm else
             f"gs://models.example.com/{ns}/{format_name}/model-{i:03d}"}
    if llm:
        model["args"] = ["--model_name=llama3", "--max_model_len=8192", "--gpu-memory-utilization=0.9"]
    raw = rng.random() < 0.7
    mode = "RawDeployment" if raw else "Serverless"
    spec = {"predictor": {"model": model, "minReplicas": 1, "maxReplicas": rng.choice([1, 2, 4]),
                          "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
                          if gpus else []}}
    if not gpus:
        del spec["predictor"]["tolerations"]
    state = rng.choices(["ready", "loading", "failed"], [80, 10, 10])[0]
    host = f"{name}-{ns}.example.com"
    predictor_url = f"http://{name}-predictor.{ns}.svc.cluster.local"

    def knative(kind, failure=None, severity="Error"):  # a Knative-style condition, as KServe writes them
        c = {"type": kind, "status": "False" if failure else "True", "lastTransitionTime": T0}
        if failure:
            c.update({"reason": failure[0], "message": failure[1], "severity": severity})
        return c
    fail = {"loading": ("MinimumReplicasUnavailable", "Deployment does not have minimum availability."),
            "failed": ("ModelLoadFailed", "Container kserve-container in pod failed: exit code 1")}.get(state)
    ok = state == "ready"
    if raw:
        ingress = None if ok else ("PredictorNotReady", "Predictor ingress not created: predictor not ready")
        conditions = [knative("IngressReady", ingress, "Info"), knative("PredictorReady", fail), knative("Ready", fail),
                      {"type": "Stopped", "status": "False", "lastTransitionTime": T0}]
        components = {"predictor": {"url": f"http://{name}-predictor-{ns}.example.com",
                                    "address": {"url": predictor_url}}}
    else:
        revision = f"{name}-predictor-00001"
        route = None if ok else ("RevisionMissing", f"Configuration \"{name}-predictor\" does not have any ready "
                                                    "Revision.")
        conditions = [knative("IngressReady", route, "Info"), knative("LatestDeploymentReady", fail),
                      knative("PredictorConfigurationReady", fail), knative("PredictorReady", fail),
                      knative("PredictorRouteReady", route), knative("Ready", fail), knative("RoutesReady", route)]
        components = {"predictor": {"latestCreatedRevision": revision, "url": f"http://{name}-predictor-{ns}.example.com",
                                    "address": {"url": predictor_url}}}
        if ok:
            components["predictor"].update({"latestReadyRevision": revision, "latestRolledoutRevision": revision,
                                            "traffic": [{"revisionName": revision, "latestRevision": True,
                                                         "percent": 100}]})
    model_status = {"ready": {"copies": {"failedCopies": 0, "totalCopies": 1},
                              "states": {"activeModelState": "Loaded", "targetModelState": "Loaded"},
                              "transitionStatus": "UpToDate"},
                    "loading": {"copies": {"failedCopies": 0},
                                "states": {"activeModelState": "Pending", "targetModelState": "Loading"},
                                "transitionStatus": "InProgress"},
                    "failed": {"copies": {"failedCopies": 1, "totalCopies": 0},
                               "states": {"activeModelState": "", "targetModelState": "FailedToLoad"},
                               "transitionStatus": "BlockedByFailedLoad",
                               "lastFailureInfo": {"reason": "ModelLoadFailed", "location": f"{name}-predictor-7d9f8",
                                                   "message": "torch.OutOfMemoryError: CUDA out of memory. Tried to "
                                                              "allocate 1.50 GiB", "exitCode": 1, "time": T0}}}[state]
    status = {"observedGeneration": 1, "deploymentMode": mode, "conditions": conditions, "components": components,
              "modelStatus": model_status}
    status["servingRuntimeName" if namespaced_runtime else "clusterServingRuntimeName"] = runtime
    if ok:
        status["url"] = f"http://{host}"
        status["address"] = {"url": predictor_url}
    api = "serving.kserve.io/v1beta1"
    return {"apiVersion": api, "kind": "InferenceService",
            "metadata": cr_metadata(name, ns, uid(0x15e70000, i), 9 * 10**6 + 1000 + i, {"team": ns}, [
                managed("kubectl-client-side-apply", {"f:metadata": {"f:annotations": {".": {}}, "f:labels": {".": {}}},
                                                      "f:spec": {".": {}, "f:predictor": {".": {}, "f:model": {}}}},
                        api_version=api),
                managed("manager", {"f:status": {".": {}, "f:components": {}, "f:conditions": {}, "f:modelStatus": {},
                                                 "f:observedGeneration": {}}},
                        subresource="status", api_version=api)],
                annotations={"serving.kserve.io/deploymentMode": mode}),
            "spec": spec, "status": status}


def cluster_policy():
    def component(repository, image, version, **extra):
        return {"enabled": True, "repository": repository, "image": image, "version": version,
                "imagePullPolicy": "IfNotPresent", **extra}
    cloud_native = "nvcr.io/nvidia/cloud-native"
    api = "nvidia.com/v1"
    return {"apiVersion": api, "kind": "ClusterPolicy",
            "metadata": cr_metadata("cluster-policy", None, uid(0x6e0c0000, 0), 9 * 10**6 + 5000,
                                    {"app.kubernetes.io/component": "gpu-operator",
                                     "app.kubernetes.io/managed-by": "Helm"}, [
                managed("helm", {"f:metadata": {"f:labels": {".": {}}}, "f:spec": {".": {}}}, api_version=api),
                managed("gpu-operator", {"f:status": {".": {}, "f:conditions": {}, "f:namespace": {}, "f:state": {}}},
                        subresource="status", api_version=api)]),
            "spec": {"operator": {"defaultRuntime": "containerd", "runtimeClass": "nvidia",
                                  "initContainer": {"repository": "nvcr.io/nvidia", "image": "cuda",
                                                    "version": "12.8.1-base-ubi9", "imagePullPolicy": "IfNotPresent"}},
                     "daemonsets": {"updateStrategy": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "1"},
                                    "priorityClassName": "system-node-critical",
                                    "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists",
                                                     "effect": "NoSchedule"}]},
                     "driver": component("nvcr.io/nvidia", "driver", "570.172.08", kernelModuleType="auto",
                                         useNvidiaDriverCRD=False, usePrecompiled=False,
                                         manager={"repository": cloud_native, "image": "k8s-driver-manager",
                                                  "version": "v0.8.1", "imagePullPolicy": "IfNotPresent",
                                                  "env": [{"name": "ENABLE_GPU_POD_EVICTION", "value": "true"},
                                                          {"name": "DRAIN_USE_FORCE", "value": "false"}]},
                                         upgradePolicy={"autoUpgrade": True, "maxParallelUpgrades": 1,
                                                        "maxUnavailable": "25%",
                                                        "drain": {"enable": False, "force": False,
                                                                  "timeoutSeconds": 300, "deleteEmptyDir": False},
                                                        "podDeletion": {"force": False, "timeoutSeconds": 300,
                                                                        "deleteEmptyDir": False}}),
                     "toolkit": component("nvcr.io/nvidia/k8s", "container-toolkit", "v1.17.8-ubuntu20.04",
                                          installDir="/usr/local/nvidia"),
                     "devicePlugin": component("nvcr.io/nvidia", "k8s-device-plugin", "v0.17.4"),
                     "dcgm": dict(component(cloud_native, "dcgm", "4.2.3-1-ubuntu22.04"), enabled=False),
                     "dcgmExporter": component("nvcr.io/nvidia/k8s", "dcgm-exporter", "4.2.3-4.1.3-ubuntu22.04",
                                               serviceMonitor={"enabled": False}),
                     "gfd": component("nvcr.io/nvidia", "k8s-device-plugin", "v0.17.4"),
                     "migManager": component(cloud_native, "k8s-mig-manager", "v0.12.3-ubuntu20.04",
                                             config={"name": "default-mig-parted-config", "default": "all-disabled"}),
                     "mig": {"strategy": "single"},
                     "nodeStatusExporter": dict(component(cloud_native, "gpu-operator-validator", "v25.3.4"),
                                                enabled=False),
                     "validator": {"repository": cloud_native, "image": "gpu-operator-validator", "version": "v25.3.4",
                                   "imagePullPolicy": "IfNotPresent",
                                   "plugin": {"env": [{"name": "WITH_WORKLOAD", "value": "false"}]}},
                     "gds": dict(component("nvcr.io/nvidia/cloud-native", "nvidia-fs", "2.20.5"), enabled=False),
                     "gdrcopy": dict(component("nvcr.io/nvidia/cloud-native", "gdrdrv", "v2.5"), enabled=False),
                     "sandboxWorkloads": {"enabled": False, "defaultWorkload": "container"},
                     "cdi": {"enabled": True, "default": False},
                     "psa": {"enabled": False},
                     "hostPaths": {"rootFS": "/", "driverInstallDir": "/run/nvidia/driver"}},
            "status": {"state": "ready", "namespace": "gpu-operator", "conditions": [
                condition("Ready", "True", "Reconciled", "ClusterPolicy is ready as all resources have been "
                                                         "successfully reconciled", 2),
                condition("Error", "False", "Ready", "", 2)]}}


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


# How many of each, by --scale (counts of the production-scale cluster, times the scale) or
# --envelope.
def sizes(args):
    if args[:1] == ["--envelope"]:
        return {"namespaces": 500, "gpu_nodes": 500, "cpu_nodes": 4500, "slices_per_node": 4, "pods": 150000,
                "sidecars": 1.0, "workloads": 5000, "cluster_queues": 500, "cohorts": 50, "claims": 20000,
                "jobsets": 1000, "rayclusters": 500, "rayjobs": 100, "rayservices": 50, "inferenceservices": 500}
    scale = float(args[1]) if len(args) > 1 and args[0] == "--scale" else 1.0
    n = lambda count: max(1, int(count * scale))
    return {"namespaces": 50, "gpu_nodes": n(500), "cpu_nodes": 0, "slices_per_node": 1, "pods": n(20000),
            "sidecars": 0.5, "workloads": n(5000), "cluster_queues": 20, "cohorts": 4, "claims": n(2000),
            "jobsets": n(200), "rayclusters": n(100), "rayjobs": n(20), "rayservices": n(10),
            "inferenceservices": n(100)}


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    out = sys.argv[1]
    size = sizes(sys.argv[2:])
    os.makedirs(out, exist_ok=True)
    rng = random.Random(11)
    namespaces = [f"team-{i:02d}" for i in range(size["namespaces"])]
    nodes = [f"gpu-node-{i:03d}" for i in range(size["gpu_nodes"])]
    cpu_nodes = [f"cpu-node-{i:04d}" for i in range(size["cpu_nodes"])]
    queues = size["cluster_queues"]
    local_queues = {ns: [(f"lq-{j}", f"cq-{(k * 4 + j) % queues:02d}") for j in range(4)]
                    for k, ns in enumerate(namespaces)}
    write_list(out, "namespaces.json", "v1", "Namespace",
               ({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "uid": uid(0x11, k)}}
                for k, ns in enumerate(namespaces)))
    write_list(out, "resourceflavors.json", "kueue.x-k8s.io/v1beta2", "ResourceFlavor",
               ({"apiVersion": "v1", "kind": "x", "metadata": {"name": f, "uid": uid(0x22, k)},
                 "spec": {"nodeLabels": {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"}}}
                for k, f in enumerate(["a100", "h100"])))
    write_list(out, "clusterqueues.json", "kueue.x-k8s.io/v1beta2", "ClusterQueue",
               (cluster_queue(i, size["cohorts"]) for i in range(queues)))
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
               workloads(rng, size["workloads"], namespaces, local_queues))
    write_list(out, "pods.json", "v1", "Pod", pods(rng, size["pods"], namespaces, nodes, cpu_nodes, size["sidecars"]))
    write_list(out, "nodes.json", "v1", "Node",
               [node(i) for i in range(len(nodes))] + [node(i, gpu=False) for i in range(len(cpu_nodes))])
    parts = size["slices_per_node"]
    write_list(out, "resourceslices.json", "resource.k8s.io/v1", "ResourceSlice",
               (slice_of(i, part, parts) for i in range(len(nodes)) for part in range(parts)))
    write_list(out, "resourceclaims.json", "resource.k8s.io/v1", "ResourceClaim",
               (claim(rng, i, namespaces, len(nodes)) for i in range(size["claims"])))
    # The operators' kinds, each from its own seed: the kinds above stay as they were.
    rng = random.Random(12)
    write_list(out, "jobsets.json", "jobset.x-k8s.io/v1alpha2", "JobSet",
               (jobset(rng, i, namespaces, local_queues) for i in range(size["jobsets"])))
    rng = random.Random(13)
    write_list(out, "rayclusters.json", "ray.io/v1", "RayCluster",
               (ray_cluster(rng, i, namespaces) for i in range(size["rayclusters"])))
    write_list(out, "rayjobs.json", "ray.io/v1", "RayJob", (ray_job(rng, i, namespaces) for i in range(size["rayjobs"])))
    write_list(out, "rayservices.json", "ray.io/v1", "RayService",
               (ray_service(rng, i, namespaces) for i in range(size["rayservices"])))
    rng = random.Random(14)
    write_list(out, "clusterservingruntimes.json", "serving.kserve.io/v1alpha1", "ClusterServingRuntime",
               (serving_runtime(i, namespaces, True) for i in range(len(KSERVE_RUNTIMES))))
    write_list(out, "servingruntimes.json", "serving.kserve.io/v1alpha1", "ServingRuntime",
               (serving_runtime(i, namespaces, False) for i in range(5)))
    write_list(out, "inferenceservices.json", "serving.kserve.io/v1beta1", "InferenceService",
               (inference_service(rng, i, namespaces) for i in range(size["inferenceservices"])))
    write_list(out, "clusterpolicies.json", "nvidia.com/v1", "ClusterPolicy", [cluster_policy()])


if __name__ == "__main__":
    main()
