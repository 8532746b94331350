"""The channel layers: the embedded one (Channels' in-memory layer, its expiry sweep
throttled) and, with Redis, pub/sub for pages (below).

``InMemoryChannelLayer`` walks every channel and every group on each send and receive to
drop expired messages, so its cost grows with the number of open pages: at a few hundred
games it was a visible share of the server's time (measured with
``python -m daifugo_site.play.bench``). Expiry is measured in seconds (a minute for
messages, a day for group membership), so sweeping at most once a second changes nothing
observable.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub

log = logging.getLogger(__name__)


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    sweep_interval = 1.0

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._last_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()


# -- Redis ---------------------------------------------------------------------------------

# Messages waiting for one consumer in this process (the pub/sub layer's per-channel queue):
# a page is sent a handful per move; a consumer this far behind is stuck, and its socket's
# send backlog (limits.SendBacklog) closes it soon. Channels-redis's list-based layer bounds
# its channels the same way ("capacity", 100 by default).
PUBSUB_CHANNEL_CAPACITY = 100


#: Marks the layer's own control messages on a group's Redis channel (a process joining it,
#: and the answers). Every serialised message is a msgpack map, whose first byte is never 0.
CONTROL = b"\x00daifugo-layer:"
#: How long a process joining a group waits for its announcement to come back to it and for
#: every other subscriber's answer, per attempt; and how many attempts.
JOIN_WAIT_S = 2.0
JOIN_ATTEMPTS = 3


class _WatchedPubSub(PubSub):
    """redis-py's pub/sub, telling its shard each time its connection is made again.

    redis-py reconnects a dropped pub/sub connection and subscribes it again by itself, so
    the receiver may never see an error; meanwhile a process that joined a group announced it
    while this one was not listening (:meth:`_BoundedShard.connected`)."""

    def __init__(self, pool: Any, shard: _BoundedShard) -> None:
        super().__init__(pool)
        self.shard = shard

    async def on_connect(self, connection: Any) -> None:
        await self.shard.connected(super().on_connect, connection)


class _BoundedShard(RedisSingleShardConnection):  # type: ignore[misc]
    def _ensure_redis(self) -> None:
        # As channels-redis does, with a pub/sub that reports its reconnections.
        if self._redis is None:
            pool = create_pool(self.host)
            self._redis = aioredis.Redis(connection_pool=pool)
            self._pubsub = _WatchedPubSub(pool, self)

    async def connected(
        self, resubscribe: Callable[[Any], Awaitable[None]], connection: Any
    ) -> None:
        """The pub/sub connection was made (again): whatever this process took as its alone
        may have been joined meanwhile, unheard. So it forgets them before subscribing again
        (what it sends goes through Redis from now on), and once subscribed announces its
        groups again, so that a process that took one of them as its own while this one was
        away learns that it is not."""
        layer = self.channel_layer
        mine = [name for name in layer.groups if layer._get_shard(name) is self]
        layer.rejoined(mine)
        await resubscribe(connection)
        announce = CONTROL + f"join:{layer.process_id}:again".encode()
        for name in mine:
            layer._spawn(self.publish_counted(name, announce))

    async def publish_counted(self, channel: str, message: bytes) -> int:
        """PUBLISH, and how many subscriber connections received it (every process has one
        per shard, its own included once Redis has processed its SUBSCRIBE)."""
        async with self._lock:
            self._ensure_redis()
            return int(await self._redis.publish(channel, message))

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        # As channels-redis does, but a full queue drops the message for that one consumer
        # instead of raising out of the loop (which skipped the rest of the group).
        if message is None:
            return
        name, data = message["channel"], message["data"]
        if isinstance(name, bytes):
            name = name.decode()
        layer = self.channel_layer
        if isinstance(data, bytes) and data.startswith(CONTROL):
            layer.control(name, data[len(CONTROL) :])
            return
        targets = [name] if name in layer.channels else list(layer.groups.get(name, ()))
        layer.deliver(targets, data)


@dataclass
class _Join:
    """A join being announced: which attempt, how many others its PUBLISH reached, whether
    it came back (so this process's SUBSCRIBE was in place first), who answered."""

    attempt: int
    others: int
    done: asyncio.Event
    echoed: bool = False
    answered: set[str] = field(default_factory=set)

    def check(self) -> None:
        if self.echoed and len(self.answered) >= self.others:
            self.done.set()


class _BoundedLoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    """The layer of one event loop. A group's messages go through Redis only when another
    process may be listening (issue 43).

    A practice game's page and the worker that drives its computers are the same process:
    every move's PUBLISH came straight back to it, a round trip to Redis and a message to
    parse, to reach a consumer beside the sender. So a group that only this process listens
    to is delivered in-process. It is known alone when its first local member's join was
    announced, came back (so this process's SUBSCRIBE was in place), and reached no other
    process.

    A process that joins a group announces it on the group's channel once subscribed, and
    waits until the announcement has come back and every other subscriber has answered. A
    process that had the group alone takes the announcement as "shared" before it answers,
    so everything it sends afterwards goes through Redis; the joining page reads its whole
    table only after that (the consumer sends it once ``group_add`` returns). So it sees
    every message sent before, and receives every message sent after. A group stays shared
    until its last local member leaves (a later first member announces again); every alone
    is forgotten whenever the subscription's connection is made again (redis-py makes it
    again by itself, after a failed read too), and the groups are then announced again.
    Sends wait for a join being announced, so a message delivered in-process never
    overtakes one sent through Redis.
    """

    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [_BoundedShard(host, self) for host in decode_hosts(hosts)]
        self.process_id = uuid.uuid4().hex
        # Group channels only this process listens to (bounded by the groups it is in:
        # dropped with the last member).
        self.alone: set[str] = set()
        # Joins of other processes heard, per group channel (any change voids a decision
        # taken across it).
        self._heard: dict[str, int] = {}
        # Group channels whose first member's join is being announced.
        self._joining: dict[str, asyncio.Future[None]] = {}
        self._joins: dict[str, _Join] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    async def _subscribe_to_channel(self, channel: str) -> None:
        self.channels[channel] = asyncio.Queue(maxsize=PUBSUB_CHANNEL_CAPACITY)
        await self._get_shard(channel).subscribe(channel)

    def deliver(self, targets: list[str], data: bytes) -> None:
        for channel in targets:
            queue = self.channels.get(channel)
            if queue is None:
                continue
            try:
                queue.put_nowait(data)
            except asyncio.QueueFull:
                log.warning("channel %s over capacity: a message was dropped", channel)

    def rejoined(self, group_channels: list[str]) -> None:
        """The subscription was made (again): forget every alone, and void a decision being
        taken across the gap (:meth:`_announce` takes none if a join was heard meanwhile)."""
        self.alone.clear()
        for name in group_channels:
            self._heard[name] = self._heard.get(name, 0) + 1

    async def group_add(self, group: str, channel: str) -> None:
        group_channel = self._get_group_channel_name(group)
        first = group_channel not in self.groups and group_channel not in self._joining
        if first:
            self._joining[group_channel] = asyncio.get_running_loop().create_future()
        try:
            await super().group_add(group, channel)
            if first:
                await self._announce(group_channel)
        finally:
            if first:
                self._joining.pop(group_channel).set_result(None)
        joining = self._joining.get(group_channel)
        if joining is not None:
            await asyncio.shield(joining)  # the first member's announcement, still going

    async def _announce(self, group_channel: str) -> None:
        shard = self._get_shard(group_channel)
        try:
            for attempt in range(JOIN_ATTEMPTS):
                heard = self._heard.get(group_channel, 0)
                join = self._joins[group_channel] = _Join(attempt, 0, asyncio.Event())
                count = await shard.publish_counted(
                    group_channel, CONTROL + f"join:{self.process_id}:{attempt}".encode()
                )
                join.others = count - 1
                join.check()
                try:
                    await asyncio.wait_for(join.done.wait(), JOIN_WAIT_S)
                except TimeoutError:
                    pass
                if not join.echoed:
                    continue  # the SUBSCRIBE was not in place: say it again
                if join.others <= 0 and self._heard.get(group_channel, 0) == heard:
                    self.alone.add(group_channel)
                elif len(join.answered) < join.others:
                    log.warning(
                        "group %s: %d of %d processes answered its join in time",
                        group_channel, len(join.answered), join.others,
                    )  # fmt: skip
                return
            log.warning("group %s: its join never came back; sent through Redis", group_channel)
        finally:
            self._joins.pop(group_channel, None)

    def control(self, group_channel: str, body: bytes) -> None:
        """A control message heard on a group's channel."""
        kind, _, rest = body.decode("ascii", "replace").partition(":")
        if kind == "join":
            sender, _, attempt = rest.partition(":")
            if sender == self.process_id:
                join = self._joins.get(group_channel)
                if join is not None and str(join.attempt) == attempt:
                    join.echoed = True
                    join.check()
                return
            # Another process listens now: everything sent from here goes through Redis.
            self._heard[group_channel] = self._heard.get(group_channel, 0) + 1
            self.alone.discard(group_channel)
            answer = CONTROL + f"answer:{self.process_id}>{sender}".encode()
            self._spawn(self._get_shard(group_channel).publish_counted(group_channel, answer))
        elif kind == "answer":
            source, _, target = rest.partition(">")
            join = self._joins.get(group_channel)
            if target == self.process_id and join is not None:
                join.answered.add(source)
                join.check()

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a group join could not be answered (%r)", task.exception())

    async def group_discard(self, group: str, channel: str) -> None:
        await super().group_discard(group, channel)
        group_channel = self._get_group_channel_name(group)
        if group_channel not in self.groups:
            self.alone.discard(group_channel)
            self._heard.pop(group_channel, None)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        group_channel = self._get_group_channel_name(group)
        joining = self._joining.get(group_channel)
        if joining is not None:
            await asyncio.shield(joining)
        data = self.channel_layer.serialize(message)
        if group_channel in self.alone:
            self.deliver(list(self.groups.get(group_channel, ())), data)
            return
        await self._get_shard(group_channel).publish(group_channel, data)


class BoundedPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """channels-redis's pub/sub layer with each consumer's queue bounded, and a group that
    only this process listens to delivered in-process (:class:`_BoundedLoopLayer`).

    Why pub/sub for pages: the list-based ``RedisChannelLayer`` costs four round trips per
    group send (expire the group, read its members, expire each channel, a Lua script) and
    a blocking-pop loop with a backup list per receiving process; pub/sub is one PUBLISH
    per group send and one subscription connection per process. In the play bench a
    computer worker spent a quarter of its CPU in group sends (issue 12). Pages lose
    nothing they need: a page sends its whole table whenever it (re)connects.
    Work queues (the ``computers`` channel: one consumer among many must get each turn)
    stay on the list-based layer (``CHANNEL_LAYERS["tasks"]``).
    """

    def _get_layer(self) -> Any:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = _BoundedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer
