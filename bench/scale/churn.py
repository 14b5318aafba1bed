#!/usr/bin/env python3
"""Changes Workloads in the test API server, as Kueue would (or Pods, as the scheduler would), and
measures how sextantd follows.

    churn.py CLUSTER_DIR CLUSTER_ENV DAEMON_URL DAEMON_PID MODE [ARGS]

Modes (each prints one line of key=value results):
  rest SECONDS           CPU seconds the daemon spends in SECONDS with nothing changing
  churn RATE SECONDS     RATE status writes a second for SECONDS; the daemon's CPU seconds, the
                         watch events it applied and the write -> view lag of a marked Workload
  burst COUNT            COUNT writes as fast as 8 writers go; how fast the daemon's
                         sextant_watch_events_total follows, and its CPU seconds per 1000 events
  lag SAMPLES            write a marker into one pending Workload's QuotaReserved message, then
                         poll its details until the view shows it; median and p90 over SAMPLES
  relist                 the Pods listed again after a 410, as after a long watch outage: etcd
                         compacted and the API server restarted (its control endpoint), so the
                         daemon's watch version is too old; the seconds until the Pods are synced
                         again, and the daemon's RSS before, at its peak during the relist and after
  pod-churn RATE SECONDS as churn, writing Pods: the PodScheduled message of pending Pods, as the
                         scheduler writes it when it still cannot place them (the envelope's
                         150 000 Pods: what changes most in a large cluster)

Every write changes the QuotaReserved message of a pending Workload (the one condition such a
Workload has), or the PodScheduled message of a pending Pod, through the status subresource, with
a merge patch. Loopback only; every loop is bounded in count and time.
"""
import http.client
import json
import os
import ssl
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# In every message written, so that a run against an etcd that an earlier run wrote to changes
# every Workload it writes: the API server drops a write that changes nothing, without an event.
RUN = os.urandom(4).hex()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


class Workloads:
    """Pending Workloads, written as Kueue does when quota is still short."""
    file, resource = "workloads.json", "workloads"

    @staticmethod
    def pending(item):
        conditions = item.get("status", {}).get("conditions", [])
        return any(c["type"] == "QuotaReserved" and c["status"] == "False" for c in conditions)

    @staticmethod
    def status_path(ns, name):
        return f"/apis/kueue.x-k8s.io/v1beta2/namespaces/{ns}/workloads/{name}/status"

    @staticmethod
    def status(message):
        return {"conditions": [{"type": "QuotaReserved", "status": "False", "reason": "Pending", "message": message,
                                "lastTransitionTime": "2026-11-29T10:00:00Z"}]}

    @staticmethod
    def view_path(ns, name):
        return f"/api/v1/kueue/workloads/{ns}/{name}"


class Pods:
    """Pending Pods, written as the scheduler does when it still cannot place them."""
    file, resource = "pods.json", "pods"

    @staticmethod
    def pending(item):
        return item.get("status", {}).get("phase") == "Pending"

    @staticmethod
    def status_path(ns, name):
        return f"/api/v1/namespaces/{ns}/pods/{name}/status"

    @staticmethod
    def status(message):
        return {"phase": "Pending", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": message,
             "lastTransitionTime": "2026-11-29T10:00:00Z"}]}

    @staticmethod
    def view_path(ns, name):
        return f"/api/v1/core/pods/{ns}/{name}"


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def metric_sum(daemon_url, family, resource):
    with urllib.request.urlopen(daemon_url + "/metrics", timeout=10) as response:
        text = response.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(family + "{") and f'resource="{resource}"' in line)


def relist(env, daemon_url, pid, timeout=1800):
    """Compacts etcd and restarts the API server: the daemon's Pod watch is 410 and lists again."""
    gone_before = metric_sum(daemon_url, "sextant_watch_relists_gone_total", "pods")
    rss_before = status_kb(pid, "VmRSS")
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")  # resets VmHWM to the current RSS: the peak read after is the relist's
    started, began = time.monotonic(), int(time.time())
    for action in ("/compact", "/restart-apiserver"):
        request = urllib.request.Request(env["CONTROL"] + action, method="POST")
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
    while time.monotonic() - started < timeout:
        gone = metric_sum(daemon_url, "sextant_watch_relists_gone_total", "pods") > gone_before
        if gone and metric_sum(daemon_url, "sextant_watch_last_sync_timestamp_seconds", "pods") >= began:
            break
        time.sleep(0.2)
    else:
        return f"relist=timeout rss_before_kb={rss_before}"
    return (f"relist_s={time.monotonic() - started:.1f} rss_before_kb={rss_before} "
            f"peak_kb={status_kb(pid, 'VmHWM')} rss_after_kb={status_kb(pid, 'VmRSS')}")


def watch_events(daemon_url, resource="workloads"):
    with urllib.request.urlopen(daemon_url + "/metrics", timeout=10) as response:
        text = response.read().decode()
    total = 0.0
    for line in text.splitlines():
        named = f'resource="{resource}"' in line or f'resource="{resource}.' in line  # pods, workloads.kueue...
        if line.startswith("sextant_watch_events_total{") and named:
            total += float(line.rsplit(" ", 1)[1])
    return total


class Writer:
    """One keep-alive HTTPS connection to the API server (one per thread)."""

    def __init__(self, env, kind=Workloads):
        self.kind = kind
        host, port = env["SERVER"].split("//")[1].rsplit(":", 1)
        self.address = (host, int(port))
        self.context = ssl.create_default_context(cafile=env["CA_CRT"])
        self.token = open(env["ADMIN_TOKEN_FILE"]).read().strip()
        self.conn = None

    def set_message(self, target, message):
        ns, name = target
        path = self.kind.status_path(ns, name)
        body = json.dumps({"status": self.kind.status(message)}).encode()
        headers = {"Authorization": "Bearer " + self.token, "Content-Type": "application/merge-patch+json"}
        for _ in range(3):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPSConnection(*self.address, context=self.context, timeout=30)
                self.conn.request("PATCH", path + "?fieldManager=bench-kueue", body, headers)
                response = self.conn.getresponse()
                response.read()
                return response.status == 200
            except (http.client.HTTPException, OSError):
                self.conn = None
        return False


def pending_objects(cluster_dir, kind):
    with open(os.path.join(cluster_dir, kind.file)) as f:
        items = json.load(f)["items"]
    return [(item["metadata"]["namespace"], item["metadata"]["name"]) for item in items if kind.pending(item)]


def write_at_rate(env, kind, targets, rate, seconds, writers=4):
    """RATE writes a second spread over `writers` threads; returns the writes that succeeded."""
    done = [0] * writers
    deadline = time.monotonic() + seconds

    def run(index):
        writer = Writer(env, kind)
        interval = writers / rate
        next_at = time.monotonic() + index / rate
        n = index
        while next_at < deadline:
            time.sleep(max(0.0, next_at - time.monotonic()))
            if writer.set_message(targets[n % len(targets)], f"churn {RUN} {n}: insufficient unused quota"):
                done[index] += 1
            n += writers
            next_at += interval

    threads = [threading.Thread(target=run, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done)


def view_lag(env, kind, daemon_url, target, marker):
    """Seconds from a write's answer to the daemon's details view showing it (None past 10 s)."""
    writer = Writer(env, kind)
    url = daemon_url + kind.view_path(*target)
    if not writer.set_message(target, f"{marker}: insufficient unused quota"):
        return None
    written = time.monotonic()
    while time.monotonic() - written < 10:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                if marker in response.read().decode():
                    return time.monotonic() - written
        except urllib.error.HTTPError as error:  # 404 until the kind's first list is in
            error.read()
        time.sleep(0.002)
    return None


def lag_samples(env, kind, daemon_url, target, samples):
    lags = []
    for i in range(samples):
        lag = view_lag(env, kind, daemon_url, target, f"lag-marker-{time.time_ns()}-{i}")
        if lag is not None:
            lags.append(lag)
        time.sleep(0.1)
    if not lags:
        return "lag_ms_p50=- lag_ms_p90=- lag_samples=0"
    lags.sort()
    p90 = lags[min(len(lags) - 1, int(0.9 * len(lags)))]
    return f"lag_ms_p50={statistics.median(lags) * 1e3:.1f} lag_ms_p90={p90 * 1e3:.1f} lag_samples={len(lags)}"


def main():
    cluster_dir, env_file, daemon_url, pid, mode = sys.argv[1:6]
    args = sys.argv[6:]
    env = dict(line.strip().split("=", 1) for line in open(env_file) if "=" in line)
    kind = Pods if mode == "pod-churn" else Workloads
    targets = pending_objects(cluster_dir, kind)
    marked, others = targets[0], targets[1:]

    if mode == "rest":
        seconds = float(args[0])
        before = cpu_seconds(pid)
        time.sleep(seconds)
        print(f"cpu_s_per_min={(cpu_seconds(pid) - before) * 60 / seconds:.2f}")
    elif mode in ("churn", "pod-churn"):
        rate, seconds = float(args[0]), float(args[1])
        cpu_before, events_before = cpu_seconds(pid), watch_events(daemon_url, kind.resource)
        lag = {}
        lag_thread = threading.Thread(
            target=lambda: lag.update(line=lag_samples(env, kind, daemon_url, marked, 20)))
        lag_thread.start()
        writes = write_at_rate(env, kind, others, rate, seconds)
        lag_thread.join()
        time.sleep(1)  # the last events reach the daemon
        cpu = cpu_seconds(pid) - cpu_before
        events = watch_events(daemon_url, kind.resource) - events_before
        print(f"writes_per_s={writes / seconds:.1f} events_applied={events:.0f} "
              f"cpu_s_per_min={cpu * 60 / seconds:.2f} {lag.get('line', 'lag_ms_p50=- lag_ms_p90=- lag_samples=0')}")
    elif mode == "burst":
        count = int(args[0])
        cpu_before, events_before = cpu_seconds(pid), watch_events(daemon_url)
        started = time.monotonic()
        writers = 8

        def write_share(index):
            writer = Writer(env)
            for n in range(index, count, writers):
                writer.set_message(others[n % len(others)], f"burst {RUN} {n}: insufficient unused quota")

        threads = [threading.Thread(target=write_share, args=(i,)) for i in range(writers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        written = time.monotonic() - started
        while watch_events(daemon_url) - events_before < count and time.monotonic() - started < written + 30:
            time.sleep(0.05)
        applied_after = time.monotonic() - started
        events = watch_events(daemon_url) - events_before
        cpu = cpu_seconds(pid) - cpu_before
        print(f"writes={count} written_s={written:.2f} events_applied={events:.0f} applied_s={applied_after:.2f} "
              f"events_per_s={events / applied_after:.0f} daemon_cpu_ms_per_1000_events={cpu * 1e6 / max(events, 1):.1f}")
    elif mode == "relist":
        print(relist(env, daemon_url, pid))
    elif mode == "lag":
        print(lag_samples(env, kind, daemon_url, marked, int(args[0])))
    else:
        sys.exit(f"churn.py: unknown mode {mode}")


if __name__ == "__main__":
    main()
