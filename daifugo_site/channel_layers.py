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
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts

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


class _BoundedShard(RedisSingleShardConnection):  # type: ignore[misc]
    def _receive_message(self, message: dict[str, Any] | None) -> None:
        # As channels-redis does, but a full queue drops the message for that one consumer
        # instead of raising out of the loop (which skipped the rest of the group).
        if message is None:
            return
        name, data = message["channel"], message["data"]
        if isinstance(name, bytes):
            name = name.decode()
        layer = self.channel_layer
        targets = [name] if name in layer.channels else list(layer.groups.get(name, ()))
        for channel in targets:
            queue = layer.channels.get(channel)
            if queue is None:
                continue
            try:
                queue.put_nowait(data)
            except asyncio.QueueFull:
                log.warning("channel %s over capacity: a message was dropped", channel)


class _BoundedLoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [_BoundedShard(host, self) for host in decode_hosts(hosts)]

    async def _subscribe_to_channel(self, channel: str) -> None:
        self.channels[channel] = asyncio.Queue(maxsize=PUBSUB_CHANNEL_CAPACITY)
        await self._get_shard(channel).subscribe(channel)


class BoundedPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """channels-redis's pub/sub layer with each consumer's queue bounded.

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
