"""The pages' channel layer with Redis: pub/sub, each consumer's queue bounded."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from daifugo_site import channel_layers
from daifugo_site.channel_layers import BoundedPubSubChannelLayer
from daifugo_site.play.localservices import Stack, missing

WHY = missing()
if WHY and os.environ.get("DAIFUGO_REQUIRE_SERVICES"):
    raise RuntimeError(f"DAIFUGO_REQUIRE_SERVICES is set but {WHY}")
pytestmark = pytest.mark.skipif(WHY is not None, reason=f"real services unavailable: {WHY}")


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with Stack() as stack:
        yield stack.start_redis()


async def _exercise(url: str) -> tuple[list[int], list[int], list[int]]:
    layer = BoundedPubSubChannelLayer(hosts=[{"address": url, "socket_timeout": 30}])
    stuck, live = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", stuck)
    await layer.group_add("g", live)
    got_live: list[int] = []
    sent = channel_layers.PUBSUB_CHANNEL_CAPACITY + 40
    for i in range(sent):
        await layer.group_send("g", {"type": "t", "n": i})
        # The live consumer keeps up; the stuck one never reads.
        got_live.append((await asyncio.wait_for(layer.receive(live), 5))["n"])
    got_stuck = []
    for _ in range(channel_layers.PUBSUB_CHANNEL_CAPACITY):
        got_stuck.append((await asyncio.wait_for(layer.receive(stuck), 5))["n"])
    # Nothing beyond the capacity was kept for it.
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(stuck), 0.5)
    # A channel of another process's consumer is reached by a plain send too.
    await layer.send(live, {"type": "t", "n": -1})
    direct = [(await asyncio.wait_for(layer.receive(live), 5))["n"]]
    await layer.flush()
    return got_live, got_stuck, direct


def test_a_stuck_consumer_is_bounded_and_does_not_starve_the_group(redis_url: str) -> None:
    got_live, got_stuck, direct = asyncio.run(_exercise(redis_url))
    capacity = channel_layers.PUBSUB_CHANNEL_CAPACITY
    assert got_live == list(range(capacity + 40))
    assert got_stuck == list(range(capacity))
    assert direct == [-1]


# -- a group only this process listens to is delivered in-process (issue 43) -------------------


def _published(layer: BoundedPubSubChannelLayer) -> list[bytes]:
    """The messages ``layer`` sends through Redis (its control messages left out)."""
    sent: list[bytes] = []
    loop_layer = layer._get_layer()
    for shard in loop_layer._shards:
        real = shard.publish

        async def counted(channel: str, message: bytes, real=real) -> None:
            sent.append(message)
            await real(channel, message)

        shard.publish = counted
    return sent


async def _receive(layer: BoundedPubSubChannelLayer, channel: str) -> int:
    return int((await asyncio.wait_for(layer.receive(channel), 5))["n"])


def _two_layers(url: str) -> tuple[BoundedPubSubChannelLayer, BoundedPubSubChannelLayer]:
    """Two layers on one loop: two processes to Redis, each its own connections and id."""
    hosts = [{"address": url, "socket_timeout": 30}]
    return BoundedPubSubChannelLayer(hosts=hosts), BoundedPubSubChannelLayer(hosts=hosts)


async def _each_way(
    a: BoundedPubSubChannelLayer, a1: str, b: BoundedPubSubChannelLayer, b1: str, n: int
) -> tuple[list[int], list[int]]:
    """``a`` sends n, ``b`` sends n + 1: what each one's consumer receives."""
    await a.group_send("g", {"type": "t", "n": n})
    await b.group_send("g", {"type": "t", "n": n + 1})
    return [await _receive(a, a1) for _ in range(2)], [await _receive(b, b1) for _ in range(2)]


async def _two_processes(url: str) -> dict[str, object]:
    a, b = _two_layers(url)
    sent_a, sent_b = _published(a), _published(b)
    a1, a2 = await a.new_channel(), await a.new_channel()
    await a.group_add("g", a1)
    await a.group_add("g", a2)
    group = a._get_layer()._get_group_channel_name("g")
    found: dict[str, object] = {"alone_first": group in a._get_layer().alone}
    for n in range(3):
        await a.group_send("g", {"type": "t", "n": n})
    found["local"] = [await _receive(a, a1) for _ in range(3)]
    found["local_2"] = [await _receive(a, a2) for _ in range(3)]
    found["published_alone"] = len(sent_a)
    # Another process joins: once its group_add returns, the first no longer sends alone.
    b1 = await b.new_channel()
    await b.group_add("g", b1)
    found["alone_after_join"] = group in a._get_layer().alone
    found["b_alone"] = group in b._get_layer().alone
    found["a_after"], found["b_after"] = await _each_way(a, a1, b, b1, 10)
    found["published_shared"] = (len(sent_a), len(sent_b))
    # The other leaves; the first stays shared until its own last member leaves and a
    # later first member finds the group alone again.
    await b.group_discard("g", b1)
    await a.group_discard("g", a1)
    await a.group_discard("g", a2)
    a3 = await a.new_channel()
    await a.group_add("g", a3)
    found["alone_again"] = group in a._get_layer().alone
    await a.group_send("g", {"type": "t", "n": 20})
    found["again"] = await _receive(a, a3)
    found["published_end"] = len(sent_a)
    await a.flush()
    await b.flush()
    return found


def test_a_group_this_process_alone_listens_to_skips_redis_until_another_joins(
    redis_url: str,
) -> None:
    found = asyncio.run(_two_processes(redis_url))
    assert found["alone_first"] is True
    assert found["local"] == [0, 1, 2] and found["local_2"] == [0, 1, 2]
    assert found["published_alone"] == 0
    assert found["alone_after_join"] is False and found["b_alone"] is False
    # Both messages reach both processes' consumers, in order, through Redis.
    assert found["a_after"] == [10, 11] and found["b_after"] == [10, 11]
    assert found["published_shared"] == (1, 1)
    assert found["alone_again"] is True and found["again"] == 20
    assert found["published_end"] == 1


async def _reconnected(url: str) -> dict[str, object]:
    """A's pub/sub connection is dropped (as by a Redis restart or a network cut) and B joins
    before A has subscribed again: B's announcement reaches nobody else, so B takes the
    group as its own, while A took it as A's. redis-py reconnects and subscribes A again by
    itself; A must then stop taking the group as its own, and tell B."""
    a, b = _two_layers(url)
    a1 = await a.new_channel()
    await a.group_add("g", a1)
    group = a._get_layer()._get_group_channel_name("g")
    found: dict[str, object] = {"alone_first": group in a._get_layer().alone}
    # Hold A's reconnection until B has joined: the gap, made certain.
    shard = a._get_layer()._shards[0]
    gap_over = asyncio.Event()
    reconnecting = asyncio.Event()
    real = shard.connected

    async def held(resubscribe: Any, connection: Any) -> None:
        reconnecting.set()
        await gap_over.wait()
        await real(resubscribe, connection)

    shard.connected = held
    admin = aioredis.Redis.from_url(url)
    await admin.client_kill_filter(_type="pubsub")
    await asyncio.wait_for(reconnecting.wait(), 10)
    b1 = await b.new_channel()
    await b.group_add("g", b1)
    found["b_alone_in_gap"] = group in b._get_layer().alone
    gap_over.set()
    for _ in range(100):
        if group not in b._get_layer().alone and group not in a._get_layer().alone:
            break
        await asyncio.sleep(0.05)
    found["a_alone"] = group in a._get_layer().alone
    found["b_alone"] = group in b._get_layer().alone
    found["a_got"], found["b_got"] = await _each_way(a, a1, b, b1, 1)
    await admin.aclose()
    await a.flush()
    await b.flush()
    return found


def test_a_pubsub_connection_dropped_and_made_again_forgets_and_announces_its_groups(
    redis_url: str,
) -> None:
    found = asyncio.run(_reconnected(redis_url))
    assert found["alone_first"] is True
    # What the gap looked like from B: nobody else listening.
    assert found["b_alone_in_gap"] is True
    assert found["a_alone"] is False and found["b_alone"] is False
    assert found["a_got"] == [1, 2] and found["b_got"] == [1, 2]
