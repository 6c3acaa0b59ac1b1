"""A Redis Cluster for the soak: three shards of a primary and a replica, and their faults.

Six redis-server processes on free loopback ports (each with its own cluster bus port, its
``nodes.conf`` and an AOF fsynced on every write in its own directory), formed as
``redis-cli --cluster create --cluster-replicas 1`` does it, from Python so every step is
bounded: the three primaries get a third of the slots each, everyone meets, each replica
``CLUSTER REPLICATE``s its primary, and the cluster counts as whole when every node says
``cluster_state:ok``, sees six nodes, and every replica's link to its primary is up.

The faults, each on the next shard in turn, each waited out until the cluster is whole
again:

- ``cluster_failover``: ``CLUSTER FAILOVER`` on the shard's replica, the coordinated switch:
  the primary stops taking writes, the replica catches up with it, then takes over, and the
  old primary becomes its replica.
- ``cluster_kill``: ``kill -9`` of the shard's primary; after ``NODE_TIMEOUT`` the others
  mark it failed and its replica is elected primary. Meanwhile the shard's slots have no
  primary, and (``cluster-require-full-coverage``, Redis's default) the cluster refuses every
  command. Then the killed node starts again from its directory and rejoins as the new
  primary's replica. Replication is asynchronous and the server does not ``WAIT``: a write
  the old primary acknowledged in its last moments, before its replica had it, is lost
  (docs/operations.md, "What a failover can lose"); the soak's check would count it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

from bench.load.launch import free_port, wait_for_redis

from .processes import StartFailed, wait_exit

__all__ = ["CLUSTER_FAILOVER", "CLUSTER_KILL", "CLUSTER_KINDS", "SoakCluster"]

CLUSTER_FAILOVER = "cluster_failover"
CLUSTER_KILL = "cluster_kill"
CLUSTER_KINDS = (CLUSTER_FAILOVER, CLUSTER_KILL)
HASH_SLOTS = 16384
SHARDS = 3
NODE_TIMEOUT = 2000
"""Milliseconds of silence after which a node counts as failed (Redis's default is 15 s;
short here so a killed primary is replaced within seconds)."""
WHOLE_TIMEOUT = 60.0


def _command(client: redis.Redis, *args: Any) -> Any:
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


class _Node:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.bus_port = free_port()
        while self.bus_port == self.port:
            self.bus_port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.node_id = ""

    @property
    def log(self) -> Path:
        return self.directory / "redis.log"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                binary,
                *("--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)),
                *("--save", "", "--daemonize", "no", "--logfile", str(self.log)),
                *("--appendonly", "yes", "--appendfsync", "always", "--maxclients", "10000"),
                *("--cluster-enabled", "yes", "--cluster-port", str(self.bus_port)),
                *("--cluster-config-file", "nodes.conf"),
                *("--cluster-node-timeout", str(NODE_TIMEOUT)),
            ],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_redis(self.port, self.process, self.log)
        except RuntimeError as exc:
            self.kill()
            raise StartFailed(str(exc)) from None
        with contextlib.closing(self.client()) as client:
            self.node_id = str(_command(client, "CLUSTER MYID"))

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5, decode_responses=True)

    def role(self) -> dict[str, str]:
        """``INFO replication``'s fields (``role``, ``master_link_status``, ...)."""
        with contextlib.closing(self.client()) as client:
            info: dict[str, Any] = client.info("replication")
        return {key: str(value) for key, value in info.items()}

    def cluster_info(self) -> dict[str, str]:
        with contextlib.closing(self.client()) as client:
            info: Any = client.cluster("info")
        return {str(key): str(value) for key, value in info.items()}

    def kill(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGKILL)
        wait_exit(self.process)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            wait_exit(self.process)
            self.process = None


class SoakCluster:
    """``SHARDS`` primaries with a replica each; ``url`` names every node as a seed."""

    def __init__(self, directory: Path) -> None:
        self.nodes = [_Node(directory / f"node{index}") for index in range(2 * SHARDS)]
        self.shards = [(self.nodes[i], self.nodes[SHARDS + i]) for i in range(SHARDS)]
        """Each shard's two nodes (which is the primary changes with the faults)."""
        self._turn = 0

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)

    @property
    def logs(self) -> list[Path]:
        return [node.log for node in self.nodes]

    def start(self) -> None:
        try:
            for node in self.nodes:
                node.start()
            self._form()
            self.wait_whole()
        except BaseException:
            self.stop()
            raise

    def _form(self) -> None:
        share = HASH_SLOTS // SHARDS
        for index, (primary, _) in enumerate(self.shards):
            last = HASH_SLOTS - 1 if index == SHARDS - 1 else (index + 1) * share - 1
            with contextlib.closing(primary.client()) as client:
                _command(client, "CLUSTER SET-CONFIG-EPOCH", index + 1)
                _command(client, "CLUSTER ADDSLOTSRANGE", index * share, last)
        first = self.nodes[0]
        with contextlib.closing(first.client()) as client:
            for node in self.nodes[1:]:
                _command(client, "CLUSTER MEET", "127.0.0.1", node.port, node.bus_port)
        for primary, replica in self.shards:
            # A replica can follow its primary once it has heard of it through the gossip.
            self._until(
                functools.partial(self._replicate, replica, primary),
                f"node {replica.port} replicating {primary.port}",
            )

    @staticmethod
    def _replicate(replica: _Node, primary: _Node) -> bool:
        with contextlib.closing(replica.client()) as client:
            try:
                _command(client, "CLUSTER REPLICATE", primary.node_id)
            except redis.ResponseError:
                return False
        return True

    def _until(self, done: Callable[[], bool], what: str, timeout: float = WHOLE_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(redis.RedisError, OSError):
                if done():
                    return
            if time.monotonic() > deadline:
                raise StartFailed(f"the Redis Cluster: not {what} within {timeout:g} s")
            time.sleep(0.1)

    def _whole(self) -> bool:
        for node in self.nodes:
            info = node.cluster_info()
            if info.get("cluster_state") != "ok" or int(info["cluster_known_nodes"]) != 6:
                return False
            if int(info.get("cluster_slots_ok", 0)) != HASH_SLOTS:
                return False
        for one, two in self.shards:
            first, second = one.role(), two.role()
            if sorted((first["role"], second["role"])) != ["master", "slave"]:
                return False
            follower = first if first["role"] == "slave" else second
            if follower.get("master_link_status") != "up":
                return False
        return True

    def wait_whole(self) -> None:
        """Until every node says the cluster is ok, each shard has one primary and one
        replica, and each replica's link to its primary is up."""
        self._until(self._whole, "whole (every shard a primary and a replica in sync)")

    def _next_shard(self) -> tuple[_Node, _Node]:
        """The next shard's (primary, replica) as they are now."""
        one, two = self.shards[self._turn % SHARDS]
        self._turn += 1
        return (one, two) if one.role()["role"] == "master" else (two, one)

    def failover(self) -> None:
        """``CLUSTER FAILOVER`` on the next shard's replica; until the cluster is whole."""
        _, replica = self._next_shard()
        with contextlib.closing(replica.client()) as client:
            _command(client, "CLUSTER FAILOVER")
        self._until(lambda: replica.role()["role"] == "master", f"{replica.port} promoted")
        self.wait_whole()

    def kill_primary(self) -> None:
        """``kill -9`` of the next shard's primary, its replica promoted by the cluster, the
        killed node back as the new primary's replica; until the cluster is whole."""
        primary, replica = self._next_shard()
        primary.kill()
        self._until(lambda: replica.role()["role"] == "master", f"{replica.port} promoted")
        primary.start()
        self.wait_whole()

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
