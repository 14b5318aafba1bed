#!/usr/bin/env python3
"""Abusive clients of issue 32, and the probe that measures what others see meanwhile.

    abuse.py probe PORT SECONDS            /healthz over one keep-alive connection, one request at
                                           a time: prints "p50_ms p99_ms max_ms requests reconnects"
    abuse.py attack PORT SECONDS KIND...   runs the attackers until SECONDS pass; KIND is
        idle      1000 connections that connect and send nothing (reopened when closed)
        slowhead  200 connections that send a request head one byte a second
        selector  4 clients asking the Workload list with the largest selector allowed, and one
                  of 2 200 terms, back to back
        distinct  4 clients asking list pages with distinct 2 KB filters and made-up object
                  names, back to back (each answer a new cache key)
      prints what each kind did, one line each.
"""
import asyncio
import collections
import http.client
import statistics
import sys
import time

HOST = "127.0.0.1"
# Each kind of attacker comes from an address of its own (all of 127/8 is loopback), the probe
# from 127.0.0.1: the server's per-client share is what keeps one address from taking every slot.
SOURCE = {"idle": "127.0.0.2", "slowhead": "127.0.0.3", "selector": "127.0.0.4", "distinct": "127.0.0.5"}


def probe(port, seconds):
    latencies, reconnects = [], 0
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.perf_counter()
        try:
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise http.client.HTTPException(f"status {response.status}")
        except (OSError, http.client.HTTPException):
            # Closed to make room for another (or refused): a new connection, timed with the request.
            reconnects += 1
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            continue
        latencies.append((time.perf_counter() - start) * 1000)
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1] if latencies else float("nan")
    print(f"{statistics.median(latencies):.3f} {p99:.3f} {latencies[-1]:.3f} {len(latencies)} {reconnects}")


async def idle(port, until, stats):
    async def one():
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection(HOST, port, local_addr=(SOURCE["idle"], 0))
                stats["opened"] += 1
                await asyncio.wait_for(reader.read(1), timeout=max(0.1, until - time.monotonic()))
                stats["closed by server"] += 1
                writer.close()
            except (OSError, asyncio.TimeoutError):
                await asyncio.sleep(0.05)
    await asyncio.gather(*(one() for _ in range(1000)))


async def slowhead(port, until, stats):
    head = b"GET /api/v1/problems HTTP/1.1\r\nHost: x\r\n\r\n"

    async def one():
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection(HOST, port, local_addr=(SOURCE["slowhead"], 0))
                stats["opened"] += 1
                for byte in head:
                    if time.monotonic() >= until:
                        break
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(1)
                answer = await asyncio.wait_for(reader.read(64), timeout=max(0.1, until - time.monotonic()))
                stats["answered " + answer[9:12].decode(errors="replace")] += 1
                writer.close()
            except (OSError, asyncio.TimeoutError):
                await asyncio.sleep(0.05)
    await asyncio.gather(*(one() for _ in range(200)))


async def ask(port, target, stats, source):
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    writer.write(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    stats["answered " + answer[9:12].decode(errors="replace")] += 1


async def selector(port, until, stats):
    allowed = ",".join(f"k{n}!=v" for n in range(20))
    hog = ",".join(f"k{n}!=v" for n in range(2200))

    async def one(target):
        while time.monotonic() < until:
            try:
                await ask(port, target, stats, SOURCE["selector"])
            except OSError:
                await asyncio.sleep(0.05)
    await asyncio.gather(*(one(f"/api/v1/kueue/workloads?labelSelector={allowed}") for _ in range(3)),
                         one(f"/api/v1/kueue/workloads?labelSelector={hog}"))


async def distinct(port, until, stats):
    counter = [0]

    async def one(i):
        while time.monotonic() < until:
            counter[0] += 1
            n = counter[0]
            key = f"p{n}-" + "x" * 200 + ".example.com"
            targets = [
                f"/api/v1/kueue/workloads?labelSelector=" + ",".join(f"{key}/k{t}!=v" for t in range(8)),
                f"/api/v1/kueue/workloads?queue=q{n}-" + "q" * 240,
                f"/api/v1/core/pods/team-a/made-up-{n}-" + "x" * 200,
            ]
            try:
                await ask(port, targets[n % 3], stats, SOURCE["distinct"])
            except OSError:
                await asyncio.sleep(0.05)
    await asyncio.gather(*(one(i) for i in range(4)))


async def attack(port, seconds, kinds):
    until = time.monotonic() + seconds
    runs = {"idle": idle, "slowhead": slowhead, "selector": selector, "distinct": distinct}
    stats = {kind: collections.Counter() for kind in kinds}
    await asyncio.gather(*(runs[kind](port, until, stats[kind]) for kind in kinds))
    for kind in kinds:
        print(f"{kind}: " + ", ".join(f"{name} {count}" for name, count in sorted(stats[kind].items())))


def main():
    mode, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    if mode == "probe":
        probe(port, seconds)
    else:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        asyncio.run(attack(port, seconds, sys.argv[4:]))


if __name__ == "__main__":
    main()
