"""The capacity model: from measured per-unit costs to processes, hosts and Redis shards.

Pure arithmetic (no I/O): ``plan(units, load, hosts)`` sizes one load. The deployment is
docs/operations.md's: single-process servers behind HAProxy with room affinity (a room's
players on its owner process, its spectators spread over all processes by least
connections), on a Redis Cluster.

A connection costs its process CPU even when idle (pings, timers), per second. A move
costs the owner process ``local`` CPU (commit, delivery to the listeners it holds),
and each *other* process holding spectators of the room ``remote`` more (Redis delivers the
published event, the process decodes and delivers it); Redis pays ``local`` for the commit
and ``remote`` a delivery. With ``P`` processes and ``S`` spectators spread evenly, a move
is published when some spectator is elsewhere (probability ``1 − P^−S``) and reaches
``(P − 1)(1 − (1 − 1/P)^S)`` other processes: at P = 2, S = 2 that is 0.75; for many
processes it tends to S. The remote figures are derived from two measurements: one process
(no pub/sub) and two behind HAProxy (0.75 deliveries a move).

Limits: a server process is one core (Python runs a process on one) and may use
``cpu_headroom`` of it; Redis is single-threaded per shard, likewise; HAProxy uses every core
of its host. A process takes at most ``max_connections`` WebSockets (the server's
``--max-connections``; its ``/readyz`` fails from 90 % of it on) and holds at most
``fd_limit`` descriptors (one a connection, plus its
Redis connections); a HAProxy process two a connection. One balancer source address can
open at most ``ports_per_tuple`` connections to one server address and port (the Linux
ephemeral range, 32768–60999 by default).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = [
    "GIB",
    "Hosts",
    "Load",
    "Plan",
    "Prediction",
    "Units",
    "deliveries_per_move",
    "plan",
    "predict",
    "publishes_per_move",
]

GIB = 1024**3
READY_SHARE = 0.9
"""Share of ``--max-connections`` from which ``/readyz`` answers 503 (server.guards)."""


@dataclass(frozen=True, slots=True)
class Units:
    """Measured per-unit costs (bench.capacity.measure writes them)."""

    server_local_us_per_move: float
    """Server CPU per move with all the room's connections on one process (Redis store)."""
    server_remote_us_per_delivery: float
    """Server CPU per move delivered through pub/sub to another process."""
    redis_local_us_per_move: float
    """Redis CPU per move (the commit, no pub/sub)."""
    redis_remote_us_per_delivery: float
    """Redis CPU per pub/sub delivery of a move to another process."""
    proxy_us_per_move: float
    """HAProxy CPU per move (the frames of the players and spectators it relays)."""
    redis_bytes_per_room: float
    """Redis memory per live room (state, presence, indexes)."""
    server_bytes_per_connection: float
    """Server RSS per idle joined WebSocket connection."""
    proxy_bytes_per_connection: float
    """HAProxy RSS per idle WebSocket (its client and server sides together)."""
    server_base_bytes: float
    """RSS of a server process holding no connection."""
    server_us_per_connection_s: float
    """Server CPU µs a second an idle joined connection costs (pings, timers)."""
    proxy_us_per_connection_s: float
    """HAProxy CPU µs a second an idle connection costs."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Units:
        """From a unit-cost JSON (its ``units`` object, or the object itself)."""
        units = data.get("units", data)
        names = [f.name for f in fields(cls)]
        missing = [name for name in names if name not in units]
        if missing:
            raise ValueError(f"unit costs lack {', '.join(missing)}")
        values = {name: float(units[name]) for name in names}
        negative = [name for name, value in values.items() if value < 0]
        if negative:
            raise ValueError(f"unit costs must not be negative: {', '.join(negative)}")
        return cls(**values)


@dataclass(frozen=True, slots=True)
class Load:
    games: int
    move_interval_s: float = 5.0
    """Seconds between two moves of a game (both players together)."""
    spectators: int = 2

    @property
    def moves_per_s(self) -> float:
        return self.games / self.move_interval_s

    @property
    def connections(self) -> int:
        return self.games * (2 + self.spectators)


@dataclass(frozen=True, slots=True)
class Hosts:
    """What a host is assumed to be, and how full it may run."""

    cores: int = 8
    memory_gib: float = 32.0
    cpu_headroom: float = 0.6
    """Share of each core (or of a shard's one thread) planned for the steady load."""
    memory_headroom: float = 0.8
    fd_limit: int = 1_048_576
    """Descriptors a process may hold (``ulimit -n``; Linux's fs.nr_open default)."""
    ports_per_tuple: int = 28_232
    """Connections from one source address to one destination address and port."""
    shard_memory_gib: float = 8.0
    """``maxmemory`` planned for a Redis shard."""
    redis_connections_per_process: int = 4
    """Descriptors a server process holds towards each shard (pool, bus, presence)."""
    max_connections: int = 10_000
    """The server's ``--max-connections`` (its default); ``/readyz`` turns the process away
    from 90 % of it on, so a process is planned for ``READY_SHARE`` of it."""


@dataclass(frozen=True, slots=True)
class Plan:
    """One load's sizing; ``binding`` names what set each count."""

    games: int
    moves_per_s: float
    connections: int
    processes: int
    server_hosts: int
    processes_per_host: int
    balancer_hosts: int
    shards: int
    server_cpu_us_per_move: float
    redis_cpu_us_per_move: float
    publishes_per_s: float
    pubsub_deliveries_per_s: float
    pubsub_deliveries_per_s_per_shard: float
    connections_per_process: float
    fds_per_process: float
    fds_per_server_host: float
    fds_per_balancer_host: float
    connections_per_port_tuple: float
    server_rss_gib_per_host: float
    redis_memory_gib_per_shard: float
    binding: dict[str, str]
    first_limit: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def publishes_per_move(processes: int, spectators: int) -> float:
    """Chance that a move has a spectator on another process than the owner's."""
    if processes <= 1 or spectators == 0:
        return 0.0
    return 1.0 - (1.0 / processes) ** spectators


def deliveries_per_move(processes: int, spectators: int) -> float:
    """Expected number of other processes holding some spectator of a room."""
    if processes <= 1:
        return 0.0
    return (processes - 1) * (1.0 - (1.0 - 1.0 / processes) ** spectators)


def _ceil(value: float) -> int:
    # a tiny epsilon keeps 3.0000000000000004 from becoming 4
    return max(1, math.ceil(value - 1e-9))


def plan(units: Units, load: Load, hosts: Hosts = Hosts()) -> Plan:
    """How many processes, hosts and shards carry ``load`` (see the module)."""
    if load.games < 1 or load.move_interval_s <= 0 or load.spectators < 0:
        raise ValueError(f"a load needs games ≥ 1, an interval > 0, spectators ≥ 0: {load}")
    moves = load.moves_per_s
    conns = load.connections
    core = hosts.cpu_headroom

    # Balancers first: the ports limit on processes depends on how many there are.
    proxy_cores = (moves * units.proxy_us_per_move + conns * units.proxy_us_per_connection_s) / 1e6
    proxy_memory = conns * units.proxy_bytes_per_connection
    by_balancer = {
        "CPU": _ceil(proxy_cores / (hosts.cores * core)),
        "memory": _ceil(proxy_memory / (hosts.memory_gib * GIB * hosts.memory_headroom)),
        "file descriptors": _ceil(2 * conns / hosts.fd_limit),
    }
    balancers = max(by_balancer.values())

    # Server processes: CPU per move depends on the count (deliveries), so iterate.
    processes = 1
    by_process: dict[str, int] = {}
    server_us = redis_us = server_cores = 0.0
    for _ in range(50):
        delivered = deliveries_per_move(processes, load.spectators)
        server_us = units.server_local_us_per_move + delivered * units.server_remote_us_per_delivery
        redis_us = units.redis_local_us_per_move + delivered * units.redis_remote_us_per_delivery
        server_cores = (moves * server_us + conns * units.server_us_per_connection_s) / 1e6
        by_process = {
            "CPU": _ceil(server_cores / core),
            "ephemeral ports": _ceil(conns / (balancers * hosts.ports_per_tuple)),
            "file descriptors": _ceil(conns / (hosts.fd_limit - 1000)),
            "--max-connections": _ceil(conns / (hosts.max_connections * READY_SHARE)),
        }
        needed = max(by_process.values())
        if needed == processes:
            break
        processes = needed
    per_process = conns / processes

    process_memory = units.server_base_bytes + per_process * units.server_bytes_per_connection
    memory_budget = hosts.memory_gib * GIB * hosts.memory_headroom
    fit_memory = int(memory_budget // process_memory)
    per_host = max(1, min(hosts.cores, fit_memory))
    server_hosts = _ceil(processes / per_host)
    host_limit = "CPU" if per_host == hosts.cores else "memory"

    redis_cores = moves * redis_us / 1e6
    redis_memory = load.games * units.redis_bytes_per_room
    by_shard = {
        "CPU": _ceil(redis_cores / core),
        "memory": _ceil(redis_memory / (hosts.shard_memory_gib * GIB)),
    }
    shards = max(3, *by_shard.values())  # a Redis Cluster has at least three masters

    publishes = moves * publishes_per_move(processes, load.spectators)
    deliveries = moves * deliveries_per_move(processes, load.spectators)
    fds = per_process + shards * hosts.redis_connections_per_process + 50

    def named(counts: dict[str, int]) -> str:
        if max(counts.values()) == 1:
            return "one suffices"
        return max(counts, key=lambda name: counts[name])

    binding = {
        "processes": named(by_process),
        "server hosts": host_limit,
        "balancer hosts": named(by_balancer),
        "shards": "cluster minimum (3)" if shards == 3 else named(by_shard),
    }
    # The first limit met as the load grows: the resource closest to its limit, relative
    # to what the tier it bounds holds.
    use = {
        "server process CPU": server_cores / (processes * core),
        "server host memory": per_host * process_memory / memory_budget,
        "Redis shard CPU": redis_cores / (shards * core),
        "Redis shard memory": redis_memory / (shards * hosts.shard_memory_gib * GIB),
        "balancer memory": proxy_memory / (balancers * memory_budget),
        "balancer CPU": proxy_cores / (balancers * hosts.cores * core),
        "balancer file descriptors": 2 * conns / (balancers * hosts.fd_limit),
        "ephemeral ports": per_process / (balancers * hosts.ports_per_tuple),
        "server --max-connections": per_process / (hosts.max_connections * READY_SHARE),
    }
    return Plan(
        games=load.games,
        moves_per_s=moves,
        connections=conns,
        processes=processes,
        server_hosts=server_hosts,
        processes_per_host=per_host,
        balancer_hosts=balancers,
        shards=shards,
        server_cpu_us_per_move=server_us,
        redis_cpu_us_per_move=redis_us,
        publishes_per_s=publishes,
        pubsub_deliveries_per_s=deliveries,
        pubsub_deliveries_per_s_per_shard=deliveries / shards,
        connections_per_process=per_process,
        fds_per_process=fds,
        fds_per_server_host=fds * per_host,
        fds_per_balancer_host=2 * conns / balancers,
        connections_per_port_tuple=per_process / balancers,
        server_rss_gib_per_host=per_host * process_memory / GIB,
        redis_memory_gib_per_shard=redis_memory / shards / GIB,
        binding=binding,
        first_limit=max(use, key=lambda name: use[name]),
    )


@dataclass(frozen=True, slots=True)
class Prediction:
    """What the model expects of a given deployment under a given load (``predict``)."""

    server_cpu_percent: float
    """All server processes together (100 = one core)."""
    proxy_cpu_percent: float
    redis_cpu_percent: float
    """All shards together."""
    redis_bytes: float
    """Redis memory the live rooms take."""
    server_connection_bytes: float
    """Server RSS the connections take (all processes)."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def predict(units: Units, load: Load, processes: int) -> Prediction:
    """The CPU and memory ``load`` should take on ``processes`` server processes."""
    delivered = deliveries_per_move(processes, load.spectators)
    moves = load.moves_per_s
    server_us = units.server_local_us_per_move + delivered * units.server_remote_us_per_delivery
    redis_us = units.redis_local_us_per_move + delivered * units.redis_remote_us_per_delivery
    conns = load.connections
    return Prediction(
        server_cpu_percent=(moves * server_us + conns * units.server_us_per_connection_s) / 1e4,
        proxy_cpu_percent=(
            moves * units.proxy_us_per_move + conns * units.proxy_us_per_connection_s
        )
        / 1e4,
        redis_cpu_percent=moves * redis_us / 1e4,
        redis_bytes=load.games * units.redis_bytes_per_room,
        server_connection_bytes=load.connections * units.server_bytes_per_connection,
    )
