"""A private Redis Cluster for tests: three masters on free loopback ports, stopped by pid.

Each node is a ``RedisServer`` (tests/support/redis_server.py) started with
``cluster-enabled yes``, its own cluster bus port (``cluster-port``, also a free port, so
nothing assumes ``port + 10000``) and its ``nodes.conf`` in its own directory. The cluster
is formed the way ``redis-cli --cluster create`` does it, but from Python so every step is
bounded: a distinct config epoch per node, contiguous slot ranges (node 0 gets the first
third), ``CLUSTER MEET``, then wait until every node says ``cluster_state:ok`` and sees all
masters and all slots. A node can be killed (SIGKILL), restarted from its directory (it
rejoins with its ``nodes.conf``; its data comes back from the AOF when it had one), frozen
and thawed, like a single RedisServer, and a slot can be migrated to another master with
its keys (``move_slot``), as ``redis-cli --cluster reshard`` does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import redis
from redis.crc import key_slot

from tests.support.redis_server import RedisServer, free_port
from tests.support.waiting import eventually_sync

__all__ = ["HASH_SLOTS", "ClusterNodeServer", "LocalCluster"]

HASH_SLOTS = 16384
FORM_TIMEOUT = 30.0


def command(client: redis.Redis, *args: str | int | float | bytes) -> Any:
    """One Redis command and its parsed reply (redis-py's sync client leaves this untyped)."""
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


class ClusterNodeServer(RedisServer):
    """A redis-server with cluster mode on; its cluster bus port is chosen free too."""

    def __init__(self, directory: Path, *, appendonly: bool = False) -> None:
        super().__init__(directory, appendonly=appendonly)
        self.bus_port = free_port()
        while self.bus_port == self.port:
            self.bus_port = free_port()
        self.first_slot = 0
        self.last_slot = -1

    def _command(self) -> list[str]:
        return [
            *super()._command(),
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
            "--cluster-port",
            str(self.bus_port),
            # How long a silent node takes to count as failed; short so tests of a frozen
            # node see the cluster react, long enough that a busy CI machine is not "down".
            "--cluster-node-timeout",
            "3000",
        ]

    def owns(self, slot: int) -> bool:
        """Whether the slot is in this node's initial range (see LocalCluster.owner)."""
        return self.first_slot <= slot <= self.last_slot

    def node_id(self) -> str:
        client = self.client()
        try:
            return str(command(client, "CLUSTER MYID"))
        finally:
            client.close()

    def info(self) -> dict[str, str]:
        client = self.client()
        try:
            raw = command(client, "CLUSTER INFO")
        finally:
            client.close()
        if isinstance(raw, dict):  # redis-py parses the reply into a dict
            return {str(key): str(value) for key, value in raw.items()}
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
        return {key.strip(): value.strip() for key, value in pairs}


class LocalCluster:
    """``masters`` cluster nodes on loopback; ``url`` is the store URL for all of them."""

    def __init__(self, directory: Path, *, masters: int = 3, appendonly: bool = False) -> None:
        if masters < 3:
            raise ValueError("a Redis Cluster needs at least three masters")
        self.nodes = [
            ClusterNodeServer(directory / f"node{index}", appendonly=appendonly)
            for index in range(masters)
        ]
        share = HASH_SLOTS // masters
        for index, node in enumerate(self.nodes):
            node.first_slot = index * share
            node.last_slot = HASH_SLOTS - 1 if index == masters - 1 else (index + 1) * share - 1
        self._moved: dict[int, ClusterNodeServer] = {}  # slots moved by move_slot

    @property
    def url(self) -> str:
        """A ``redis+cluster://`` URL naming every node as a seed."""
        seeds = ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)
        return f"redis+cluster://{seeds}"

    def owner(self, slot: int) -> ClusterNodeServer:
        moved = self._moved.get(slot)
        if moved is not None:
            return moved
        return next(node for node in self.nodes if node.owns(slot))

    def node_for_key(self, key: str) -> ClusterNodeServer:
        return self.owner(key_slot(key.encode()))

    def move_slot(self, slot: int, target: ClusterNodeServer) -> int:
        """Migrate ``slot`` and its keys to ``target``; returns how many keys moved."""
        source = self.owner(slot)
        if source is target:
            raise ValueError(f"slot {slot} is already on port {target.port}")
        source_id, target_id = source.node_id(), target.node_id()
        src, dst = source.client(), target.client()
        moved = 0
        try:
            command(dst, "CLUSTER SETSLOT", slot, "IMPORTING", source_id)
            command(src, "CLUSTER SETSLOT", slot, "MIGRATING", target_id)
            for _ in range(10_000):
                keys = command(src, "CLUSTER GETKEYSINSLOT", slot, 100)
                if not keys:
                    break
                command(src, "MIGRATE", "127.0.0.1", target.port, "", 0, 5000, "KEYS", *keys)
                moved += len(keys)
            # The target first, then the source, then the rest (the documented order).
            for node in (target, source, *(n for n in self.nodes if n not in (target, source))):
                client = node.client()
                try:
                    command(client, "CLUSTER SETSLOT", slot, "NODE", target_id)
                finally:
                    client.close()
        finally:
            src.close()
            dst.close()
        self._moved[slot] = target
        self._wait_owner(slot, target)
        return moved

    def _wait_owner(self, slot: int, target: ClusterNodeServer) -> None:
        def agreed() -> bool:
            agreeing = 0
            for node in self.nodes:
                client = node.client()
                try:
                    ranges = command(client, "CLUSTER SLOTS")
                finally:
                    client.close()
                agreeing += any(
                    int(first) <= slot <= int(last) and int(master[1]) == target.port
                    for first, last, master, *_ in ranges
                )
            return agreeing == len(self.nodes)

        eventually_sync(
            agreed,
            f"every node agreeing that slot {slot} moved to {target.port}",
            timeout=FORM_TIMEOUT,
            interval=0.05,
        )

    def start(self) -> LocalCluster:
        try:
            for node in self.nodes:
                node.start()
            self._form()
            self.wait_ok()
        except BaseException:
            self.kill()
            raise
        return self

    def _form(self) -> None:
        first = self.nodes[0]
        for epoch, node in enumerate(self.nodes, start=1):
            client = node.client()
            try:
                command(client, "CLUSTER SET-CONFIG-EPOCH", epoch)
                command(client, "CLUSTER ADDSLOTSRANGE", node.first_slot, node.last_slot)
            finally:
                client.close()
        client = first.client()
        try:
            for node in self.nodes[1:]:
                command(client, "CLUSTER MEET", "127.0.0.1", node.port, node.bus_port)
        finally:
            client.close()

    def wait_ok(self, timeout: float = FORM_TIMEOUT) -> None:
        """Wait until every running node reports a healthy cluster with every master."""
        last: dict[str, str] = {}

        def healthy() -> bool:
            nonlocal last
            count = 0
            for node in self.nodes:
                with contextlib.suppress(redis.RedisError):
                    last = node.info()
                    if (
                        last.get("cluster_state") == "ok"
                        and last.get("cluster_known_nodes") == str(len(self.nodes))
                        and last.get("cluster_slots_ok") == str(HASH_SLOTS)
                        and last.get("cluster_size") == str(len(self.nodes))
                    ):
                        count += 1
            return count == len(self.nodes)

        try:
            eventually_sync(healthy, "a healthy cluster", timeout=timeout, interval=0.05)
        except AssertionError as exc:
            raise RuntimeError(f"{exc}; last CLUSTER INFO: {last}") from None

    def kill(self) -> None:
        for node in self.nodes:
            node.kill()

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill()

    @classmethod
    @contextlib.contextmanager
    def running(cls, directory: Path, *, appendonly: bool = False) -> Iterator[LocalCluster]:
        with cls(directory, appendonly=appendonly) as cluster:
            yield cluster
