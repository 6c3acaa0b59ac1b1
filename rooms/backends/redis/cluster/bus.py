"""The Redis Bus on a Redis Cluster: sharded pub/sub, one connection per shard.

A room's channel ``<prefix>:{<room>}:ch`` hashes to the room's slot and the commit script
SPUBLISHes there (``store``), so a message travels only inside the shard that owns the slot. A
worker listens with SSUBSCRIBE on one connection per master it has rooms on (a ``_ShardLink``,
made on first use). Each link is the single-Redis bus (rooms.backends.redis.bus) speaking the
sharded commands: reference-counted channels, confirmed subscriptions, PINGs, and on reconnect a
resubscribe and re-delivery of each room's latest logged event. Channels of different slots
cannot share one SSUBSCRIBE, so a link subscribes one channel per command.

When the topology changes (a failover, or a slot migrated, which Redis announces with an
unprompted ``sunsubscribe``), the link reports it; the bus refreshes the slot map and moves
every room whose slot lives elsewhere to its new master's link, with the same re-delivery.
Whatever was published during the move is in the room's log: the bus is a hint and the store the
truth (invariant 4).
"""

from __future__ import annotations

import asyncio
import logging

from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import AbstractConnection

from rooms.backends.redis.bus import RedisBus, RedisSubscription
from rooms.backends.redis.cluster.store import first_contact
from rooms.backends.redis.connect import RedisOptions, guarded
from rooms.backends.redis.keys import KeyLayout
from rooms.common.tasks import stop_task
from rooms.errors import ErrorCode, RoomError

__all__ = ["RedisClusterBus"]

log = logging.getLogger("tictactoe.rooms")

REROUTE_PAUSE = 0.2
"""Seconds a topology refresh waits first, so one failure seen by many links (and their
reconnect attempts) costs one CLUSTER SLOTS, at most about five a second."""


class _ShardLink(RedisBus):
    """The pub/sub connection of this worker to one master, with sharded commands."""

    _subscribe_command = "SSUBSCRIBE"
    _unsubscribe_command = "SUNSUBSCRIBE"
    _message_kind = "smessage"
    _confirm_kind = "ssubscribe"

    def __init__(self, owner: RedisClusterBus, node: ClusterNode) -> None:
        super().__init__(
            client=owner.client,
            prefix=owner.layout.prefix,
            options=owner.options,
            buffer=owner.buffer,
            health_interval=owner.health[0],
            health_timeout=owner.health[1],
            linger=0.0,
        )
        self.node = node
        self._owner = owner
        self.dropped: set[str] = set()
        """Rooms still held whose channel Redis unsubscribed (their slot moved away)."""

    def start(self) -> None:
        """Start the reader (it connects, then subscribes whatever rooms it holds)."""
        if self._reader is None:
            self._reader = asyncio.create_task(self._run(), name=f"redis-bus:{self.node.name}")

    def room_ids(self) -> list[str]:
        return list(self._rooms)

    def _new_connection(self) -> AbstractConnection:
        kwargs = dict(self.node.connection_kwargs)
        kwargs["protocol"] = 2  # plain lists for messages, as in the single-Redis bus
        kwargs["client_name"] = f"{self._layout.prefix}-bus"
        for key in ("maint_notifications_config", "maint_notifications_pool_handler"):
            kwargs.pop(key, None)
        connection: AbstractConnection = self.node.connection_class(**kwargs)
        return connection

    async def _send_subscribe(self, room_ids: list[str]) -> None:
        if self._conn is None:
            return  # the reader subscribes every room once it is connected
        for room_id in room_ids:  # one slot per SSUBSCRIBE, or Redis answers CROSSSLOT
            self._pending[room_id] = self._pending.get(room_id, 0) + 1
            await self._send(self._subscribe_command, self._layout.channel(room_id))

    async def _send_unsubscribe(self, room_ids: list[str]) -> None:
        # One slot per command, as for SSUBSCRIBE. (A link does not linger: a room may
        # move to another master meanwhile, and the cluster bus finds a room's link by
        # its listeners.)
        await self._send_all(
            [(self._unsubscribe_command, self._layout.channel(room_id)) for room_id in room_ids]
        )

    def _lost(self) -> None:
        self._owner.reroute_soon()

    def _other(self, kind: str, room_id: str) -> None:
        # Our own SUNSUBSCRIBE is confirmed after the room left ``_rooms``; one for a room
        # still held is Redis saying the slot moved away from this master: the channel is no
        # longer subscribed here, whatever the slot map says next.
        if kind == "sunsubscribe" and room_id in self._rooms:
            self.dropped.add(room_id)
            self._owner.reroute_soon()

    async def resubscribe(self, room_id: str) -> None:
        """Subscribe ``room_id`` again here (Redis dropped it, and the slot map still names
        this master); once confirmed, its latest logged event is re-delivered."""
        self.dropped.discard(room_id)
        if room_id not in self._rooms:
            return
        self._resync_due.add(room_id)
        await self._send_subscribe([room_id])

    async def evict(self, room_id: str) -> set[RedisSubscription]:
        """Stop carrying ``room_id`` here and hand back its subscriptions."""
        subscriptions = self._rooms.pop(room_id, set())
        self.dropped.discard(room_id)
        self._ready.pop(room_id, None)
        self._pending.pop(room_id, None)
        self._resync_due.discard(room_id)
        await self._send(self._unsubscribe_command, self._layout.channel(room_id))
        return subscriptions

    async def adopt(self, room_id: str, subscriptions: set[RedisSubscription]) -> None:
        """Carry ``room_id``'s subscriptions from now on; once Redis confirms the channel,
        its latest logged event is re-delivered (what was published meanwhile)."""
        for subscription in subscriptions:
            subscription._bus = self
        held = self._rooms.get(room_id)
        if held is not None:
            # Subscribed here already: a listener's subscribe came while the room was
            # between links (no link held it, so it went to the new master). The moved
            # subscriptions may have missed what was published during the move, and no
            # confirmation of theirs will come to redeliver it: redeliver it now, or once
            # the channel here is confirmed.
            held |= subscriptions
            ready = self._ready.get(room_id)
            if ready is not None and ready.is_set():
                self._resync_now(room_id)
            else:
                self._resync_due.add(room_id)
            return
        self._rooms[room_id] = set(subscriptions)
        self._ready[room_id] = asyncio.Event()
        self._resync_due.add(room_id)
        await self._send_subscribe([room_id])


class RedisClusterBus:
    def __init__(
        self,
        client: RedisCluster,
        *,
        prefix: str = "ttt",
        options: RedisOptions | None = None,
        buffer: int = 1024,
        health_interval: float = 1.0,
        health_timeout: float = 3.0,
        own_client: bool = False,
    ) -> None:
        self.client = client
        self.options = options or RedisOptions()
        self.layout = KeyLayout(prefix)
        self.buffer = buffer
        self.health = (health_interval, max(health_timeout, health_interval))
        self._own_client = own_client
        self._links: dict[str, _ShardLink] = {}
        self._open = False
        self._reroute: asyncio.Task[None] | None = None
        self._again = False
        self.reroutes = 0
        """How many rooms were moved to another master's link (failover, resharding)."""

    # -- lifecycle ------------------------------------------------------------------------

    async def open(self) -> None:
        await first_contact(self.client, self.options, "bus")
        self._open = True

    async def close(self) -> None:
        self._open = False
        task, self._reroute = self._reroute, None
        if task is not None:
            await stop_task(task)
        links, self._links = list(self._links.values()), {}
        for link in links:
            await link.close()
        if self._own_client:
            await self.client.aclose()

    # -- the Bus protocol -----------------------------------------------------------------

    async def publish(self, room_id: str, message: str) -> None:
        async with guarded("publish", self.options.timeout):
            await self.client.spublish(self.layout.channel(room_id), message)

    async def subscribe(self, room_id: str) -> RedisSubscription:
        if not self._open:
            raise RoomError(ErrorCode.UNAVAILABLE, "the bus is not open; retry in a moment")
        link = self._holder(room_id)
        if link is None:
            async with guarded("subscribe", self.options.timeout):
                link = self._link(self._owner_of(room_id))
        return await link.subscribe(room_id)

    def subscribers(self, room_id: str) -> int:
        link = self._holder(room_id)
        return link.subscribers(room_id) if link is not None else 0

    def shards(self) -> dict[str, list[str]]:
        """The rooms each link (named ``host:port`` of its master) carries now."""
        return {name: link.room_ids() for name, link in self._links.items()}

    @property
    def connections(self) -> int:
        """How many times the links' pub/sub connections were (re)established, in all."""
        return sum(link.connections for link in self._links.values())

    # -- routing --------------------------------------------------------------------------

    def _holder(self, room_id: str) -> _ShardLink | None:
        """The link already carrying ``room_id`` (a room lives on one link at a time)."""
        for link in self._links.values():
            if link.subscribers(room_id):
                return link
        return None

    def _owner_of(self, room_id: str) -> ClusterNode:
        """The master of the room's slot in the slot map as last learned."""
        node = self.client.get_node_from_key(self.layout.channel(room_id))
        if node is None:
            raise RoomError(ErrorCode.UNAVAILABLE, "no master serves this room; retry")
        return node

    def _link(self, node: ClusterNode) -> _ShardLink:
        link = self._links.get(node.name)
        if link is None:
            link = self._links[node.name] = _ShardLink(self, node)
            link.start()
        return link

    def reroute_soon(self) -> None:
        """Refresh the slot map and move rooms that changed master (one task at a time)."""
        if not self._open:
            return
        if self._reroute is None or self._reroute.done():
            self._reroute = asyncio.create_task(self._rerouting(), name="redis-bus-reroute")
        else:
            self._again = True

    async def _rerouting(self) -> None:
        for _ in range(100):  # further trouble reported while refreshing: go again
            self._again = False
            await asyncio.sleep(REROUTE_PAUSE)
            try:
                async with guarded("topology", self.options.timeout):
                    await self.client.nodes_manager.initialize()
                    await self._move_rooms()
            except RoomError as exc:
                # The cluster cannot tell yet (a vote in progress, all seeds down). Tried
                # again: after a CLUSTER FAILOVER no link fails to report it once more.
                log.warning("redis cluster bus: topology refresh failed: %s", exc.message)
                self._again = True
            if not self._again:
                return

    async def _move_rooms(self) -> None:
        for link in list(self._links.values()):
            for room_id in link.room_ids():
                owner = self._owner_of(room_id)
                if owner.name == link.node.name:
                    if room_id in link.dropped:  # the map not updated yet, or moved back
                        await link.resubscribe(room_id)
                    continue
                subscriptions = await link.evict(room_id)
                await self._link(owner).adopt(room_id, subscriptions)
                self.reroutes += 1
                log.info("redis cluster bus: room %s moved to %s", room_id, owner.name)
        masters = {node.name for node in self.client.get_primaries()}
        for name, link in list(self._links.items()):
            if name not in masters and not link.room_ids():
                del self._links[name]  # a master no more (failed over, removed)
                await link.close()
