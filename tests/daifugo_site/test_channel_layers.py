"""The throttled in-memory layer still delivers, and still expires old messages."""

from __future__ import annotations

import asyncio

from daifugo_site.channel_layers import SweepingInMemoryChannelLayer


async def test_messages_are_delivered_to_groups() -> None:
    layer = SweepingInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("game-x", channel)
    await layer.group_send("game-x", {"type": "game.update", "version": 3})
    assert await asyncio.wait_for(layer.receive(channel), 1) == {
        "type": "game.update",
        "version": 3,
    }


async def test_expired_messages_are_still_swept() -> None:
    layer = SweepingInMemoryChannelLayer(expiry=0)
    layer.sweep_interval = 0.0
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "old"})
    await asyncio.sleep(0.01)
    layer._clean_expired()
    assert channel not in layer.channels


async def test_the_sweep_runs_at_most_once_per_interval() -> None:
    layer = SweepingInMemoryChannelLayer(expiry=0)
    layer.sweep_interval = 60.0
    layer._clean_expired()  # the first sweep
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "old"})
    await asyncio.sleep(0.01)
    layer._clean_expired()  # too soon: skipped
    assert channel in layer.channels
