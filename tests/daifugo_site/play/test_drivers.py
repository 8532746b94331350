"""A turn asked for while the game's driver is running is never lost."""

from __future__ import annotations

import asyncio

import pytest

from daifugo_site.play import computers


async def test_a_poke_during_a_drive_starts_another_when_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int | None] = []
    release = asyncio.Event()

    async def drive(game_id: str, version: int | None = None) -> None:
        calls.append(version)
        if len(calls) == 1:
            # The first driver looked at version 1 and is on its way out (no computer to
            # act there) when the moves of versions 2 and 3 ask for the computer.
            await release.wait()

    monkeypatch.setattr(computers, "drive", drive)
    computers.start_driver("g", 1)
    await asyncio.sleep(0)
    computers.start_driver("g", 2)
    computers.start_driver("g", 3)
    assert calls == [1]
    release.set()
    for _ in range(20):
        await asyncio.sleep(0)
    # Exactly one more driver, told the newest version.
    assert calls == [1, 3]
    assert "g" not in computers._POKED and "g" not in computers._DRIVERS


async def test_an_unknown_version_wins_over_a_known_one(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int | None] = []
    release = asyncio.Event()

    async def drive(game_id: str, version: int | None = None) -> None:
        calls.append(version)
        if len(calls) == 1:
            await release.wait()

    monkeypatch.setattr(computers, "drive", drive)
    computers.start_driver("h", 1)
    await asyncio.sleep(0)
    computers.start_driver("h", None)
    computers.start_driver("h", 5)
    release.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert calls == [1, None]
