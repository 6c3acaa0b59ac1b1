"""A private Redis Cluster for ``bench.capacity check``: masters on free loopback ports.

Formed as ``redis-cli --cluster create`` does (distinct config epochs, contiguous slot
ranges, ``CLUSTER MEET``), from Python so every step is bounded; no replicas, no
persistence; each node stopped by its pid. (tests/support/redis_cluster.py is the tests'
twin with faults and resharding; bench code never imports tests.)
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

from bench.load.launch import START_TIMEOUT, free_port, wait_for_redis

__all__ = ["HASH_SLOTS", "Cluster"]

HASH_SLOTS = 16384


class Cluster:
    """``masters`` cluster nodes; ``url`` is the store URL naming them all."""

    def __init__(self, masters: int = 3) -> None:
        if masters < 3:
            raise ValueError(f"a Redis Cluster needs at least three masters, not {masters}")
        self.masters = masters
        self.directory = tempfile.TemporaryDirectory(prefix="bench-cluster-")
        self.ports: list[int] = []
        self.bus_ports: list[int] = []
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports)

    @property
    def node_urls(self) -> list[str]:
        return [f"redis://127.0.0.1:{port}/0" for port in self.ports]

    @property
    def pids(self) -> tuple[int, ...]:
        return tuple(process.pid for process in self.processes)

    def start(self) -> Cluster:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        try:
            for index in range(self.masters):
                port, bus = free_port(), free_port()
                while bus == port:
                    bus = free_port()
                node = Path(self.directory.name) / f"node{index}"
                node.mkdir()
                self.ports.append(port)
                self.bus_ports.append(bus)
                self.processes.append(
                    subprocess.Popen(
                        [
                            binary,
                            *("--port", str(port), "--bind", "127.0.0.1", "--dir", str(node)),
                            *("--save", "", "--appendonly", "no", "--daemonize", "no"),
                            *("--logfile", str(node / "redis.log"), "--maxclients", "10000"),
                            *("--cluster-enabled", "yes", "--cluster-port", str(bus)),
                            *("--cluster-config-file", "nodes.conf"),
                        ],
                        cwd=node,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
                wait_for_redis(port, self.processes[-1], node / "redis.log")
            self._form()
        except BaseException:
            self.stop()
            raise
        return self

    def _client(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, socket_timeout=5, decode_responses=True)

    def _form(self) -> None:
        share = HASH_SLOTS // self.masters
        for index, port in enumerate(self.ports):
            last = HASH_SLOTS - 1 if index == self.masters - 1 else (index + 1) * share - 1
            with contextlib.closing(self._client(port)) as client:
                client.execute_command("CLUSTER SET-CONFIG-EPOCH", index + 1)  # type: ignore[no-untyped-call]
                client.execute_command("CLUSTER ADDSLOTSRANGE", index * share, last)  # type: ignore[no-untyped-call]
        with contextlib.closing(self._client(self.ports[0])) as client:
            for port, bus in zip(self.ports[1:], self.bus_ports[1:], strict=True):
                client.execute_command("CLUSTER MEET", "127.0.0.1", port, bus)  # type: ignore[no-untyped-call]
        deadline = time.monotonic() + START_TIMEOUT
        while not all(self._healthy(port) for port in self.ports):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the Redis Cluster did not form within {START_TIMEOUT} s")
            time.sleep(0.1)

    def _healthy(self, port: int) -> bool:
        with contextlib.closing(self._client(port)) as client:
            info: Any = client.cluster("info")  # redis-py parses CLUSTER INFO into a dict
        return (
            str(info.get("cluster_state")) == "ok"
            and int(info.get("cluster_known_nodes", 0)) == self.masters
            and int(info.get("cluster_slots_ok", 0)) == HASH_SLOTS
        )

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)
        self.processes = []
        self.directory.cleanup()

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
