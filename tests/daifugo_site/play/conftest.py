"""Helpers for the play page's tests: games owned by a session, WebSocket clients that read
the pushed table, and an engine replay to know what each page was allowed to show."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from daifugo_site.asgi import application
from daifugo_site.play import services
from daifugo_site.play.models import Game
from rules_engine import RuleSet

ORIGIN = (b"origin", b"http://127.0.0.1")


def new_session() -> tuple[str, str]:
    """A saved session holding a player token: (session key, token)."""
    store = SessionStore()
    token = services.player_token(store)
    store.save()
    assert store.session_key is not None
    return store.session_key, token


def make_game(
    *,
    preset: str = "standard",
    players: int = 4,
    rounds: int = 3,
    levels: list[str] | None = None,
    seed: int = 11,
    owner: str | None = None,
    **overrides: Any,
) -> tuple[Game, str]:
    key, token = new_session()
    game = services.create_game(
        owner=owner or token,
        rules=RuleSet.preset(preset, **overrides),
        players=players,
        rounds=rounds,
        levels=levels or ["beginner"] * (players - 1),
        delay_ms=0,
        seed=seed,
    )
    return game, key


@dataclass
class Table:
    """What one push said, read back from its HTML."""

    raw: str
    version: int | None
    your_turn: bool
    legal: list[dict[str, Any]]
    hand: list[str]
    owe: int
    round_over: bool
    match_over: bool
    error: str | None
    cards_shown: list[str] = field(default_factory=list)
    raw_message: str = ""

    @property
    def can_pass(self) -> bool:
        return bool(re.search(r'data-action="pass"(?![^>]*disabled)', self.raw) and self.your_turn)


FRAGMENT_START = re.compile(r'<[a-z]+ id="([a-z-]+)"[^>]*hx-swap-oob="([a-z]+)"')


def merge(page: dict[str, str], message: str) -> None:
    """Apply a push to ``page`` (fragment id -> HTML) the way htmx's oob swap does."""
    starts = list(FRAGMENT_START.finditer(message))
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(message)
        fragment_id, how = match.group(1), match.group(2)
        chunk = message[match.start() : end]
        if fragment_id == "log-list" and how == "beforeend":
            inner = chunk[chunk.find(">") + 1 : chunk.rfind("</ol>")]
            log = page.get("log", "")
            cut = log.rfind("</ol>")
            page["log"] = log[:cut] + inner + log[cut:]
        else:
            page[fragment_id] = chunk


ORDER = ("table-version", "status", "seats", "field", "exchange", "hand", "results", "log",
         "announcer", "play-error")  # fmt: skip


def read_table(text: str) -> Table:
    version = re.search(r'data-version="(\d+)"', text)
    legal = re.search(r'data-legal="([^"]*)"', text)
    hand_part = text[text.find('id="hand"') :] if 'id="hand"' in text else ""
    hand_part = hand_part[: hand_part.find("</section>")]
    error = re.search(r'data-reason="([a-z_]*)"', text)
    owe = re.search(r'data-testid="hand"[^>]*data-owe="(\d+)"', text)
    return Table(
        raw=text,
        version=int(version.group(1)) if version else None,
        your_turn='data-your-turn="true"' in text,
        legal=json.loads(html.unescape(legal.group(1))) if legal else [],
        hand=re.findall(r'data-card="([A-Z0-9]{2})"', hand_part),
        owe=int(owe.group(1)) if owe else 0,
        round_over='data-testid="round-result"' in text,
        match_over='data-testid="match-over"' in text,
        error=error.group(1) if error else None,
        cards_shown=re.findall(r'data-card="([A-Z0-9]{2})"', text),
    )


class PlayClient:
    """A WebSocket page of a game: send actions, read pushed tables."""

    def __init__(self, game_id: str, session_key: str | None, lang: str = "zh-hans") -> None:
        headers = [ORIGIN]
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        self.communicator = WebsocketCommunicator(
            application, f"/ws/play/{lang}/{game_id}/", headers=headers
        )
        self.messages: list[str] = []
        self.page: dict[str, str] = {}

    async def connect(self) -> Table:
        connected, _ = await self.communicator.connect()
        assert connected
        return await self.receive()

    async def receive(self, timeout: float = 5) -> Table:
        """The next push, merged into the page: the table as the browser now shows it
        (``error`` is only this push's)."""
        text = await self.communicator.receive_from(timeout=timeout)
        self.messages.append(text)
        self.page.pop("play-error", None)
        merge(self.page, text)
        table = read_table("".join(self.page.get(key, "") for key in ORDER))
        table.raw_message = text
        return table

    async def send(self, data: Any) -> None:
        if isinstance(data, str):
            await self.communicator.send_to(text_data=data)
        else:
            await self.communicator.send_json_to(data)

    async def until(self, predicate: Callable[[Table], bool], timeout: float = 10) -> Table:
        """Read pushes until one satisfies ``predicate``."""
        while True:
            table = await self.receive(timeout=timeout)
            if predicate(table):
                return table

    async def drain(self) -> Table | None:
        """Read every push already waiting; the last one (or None)."""
        last = None
        while not await self.communicator.receive_nothing(timeout=0.05):
            last = await self.receive()
        return last

    async def close(self) -> None:
        await self.communicator.disconnect()


@pytest.fixture
def game_factory() -> Callable[..., Awaitable[tuple[Game, str]]]:
    return database_sync_to_async(make_game)


@pytest.fixture
def thread_pool(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The computers' fair pool on one thread (and local leases), so a test drives the
    site's computer seats in process and can replace what the players do."""
    from concurrent.futures import ThreadPoolExecutor

    from daifugo_site.play import computers

    fair = computers.FairPool(1, 1, executor=lambda: ThreadPoolExecutor(1))
    monkeypatch.setattr(computers, "_POOL", fair)
    monkeypatch.setattr(computers, "_QUICK", fair)
    monkeypatch.setattr(computers, "_LEASES", computers.LocalLeases(3000))
    return fair
