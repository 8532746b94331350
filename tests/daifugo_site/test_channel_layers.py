"""The pages' channel layer with Redis: pub/sub, each consumer's queue bounded."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

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
