"""Issue 43 on real parts: a practice game whose computers do not search is driven by the
web worker that received its move (``computers.drives_here``), and a killed web worker's
turn is still picked up, by the computer workers' sweep once its lease has expired.

Two daphne web workers, a throwaway Redis and PostgreSQL (``localservices.Stack``); no
computer worker at first, so the computers' moves can only come from the web worker.
Skips without the servers, as test_multiprocess.py does; CI sets DAIFUGO_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import asyncio
import json
import time

from daifugo_site.play.localservices import Stack
from rules_engine import Match

from . import test_multiprocess as _multiprocess
from .test_multiprocess import RECORD, Page, _answer
from .test_ws_game import assert_nothing_hidden_shown, hidden_cards_at

# The same skip (or, under DAIFUGO_REQUIRE_SERVICES, failure) without the real servers, and
# a throwaway Redis and PostgreSQL of this module's own (a module-scoped fixture).
pytestmark = _multiprocess.pytestmark
stack = _multiprocess.stack

# Beginner and intermediate computers, at a pace, so that a worker can die between a
# computer's turn beginning and its move being published.
CREATE = """
from django.contrib.sessions.backends.db import SessionStore
from daifugo_site.play import services
from rules_engine import RuleSet
store = SessionStore(); token = services.player_token(store); store.save()
game = services.create_game(owner=token, rules=RuleSet.preset("standard"), players=4,
    rounds=1, levels=["beginner", "intermediate", "beginner"], delay_ms=300, seed=11)
print(game.id, store.session_key)
"""


async def _play(stack: Stack, web_a: int, web_b: int, game_id: str, key: str) -> Page:
    page = Page(web_a, game_id, key)
    table = await page.connect()
    deadline = time.monotonic() + 240
    killed_at = 0.0
    pickup = None
    while not table.match_over:
        assert time.monotonic() < deadline, "the match did not end in time"
        version = table.version or 0
        if version >= 12 and not killed_at and not table.your_turn and not table.round_over:
            # The computers' turns are owed and worker A drives them: it dies. A computer
            # worker starts only now, so the moves before came from worker A alone.
            stack.start_computers()
            stack.kill(stack.web[web_a])
            killed_at = time.monotonic()
            table = await page.connect(web_b)
            continue
        await _answer(page, table)
        try:
            table = await page.receive(timeout=20)
        except TimeoutError:
            raise AssertionError("no push for 20 s\n" + stack.log_text(4000)) from None
        if killed_at and pickup is None and (table.version or 0) > version:
            pickup = time.monotonic() - killed_at
    assert killed_at and pickup is not None
    # The lease (3 s) expired, the computer worker's sweep (every second) found the game.
    print(f"turn picked up {pickup:.1f} s after the web worker was killed")
    assert pickup < 15
    await page.close()
    return page


def test_a_web_worker_drives_quick_computers_and_its_death_loses_no_turn(stack: Stack) -> None:
    web_a = stack.start_web()
    web_b = stack.start_web()
    game_id, key = stack.manage("shell", "-v", "0", "-c", CREATE).split()
    page = asyncio.run(_play(stack, web_a, web_b, game_id, key))
    record = json.loads(stack.manage("shell", "-v", "0", "-c", RECORD % game_id))
    # The stored log replays through the engine: every move legal where it stands, none
    # applied twice (a second copy would be out of turn).
    match = Match.from_record(record)
    assert match.over
    assert_nothing_hidden_shown(page.messages, hidden_cards_at(match, 0))
    logs = stack.log_text()
    assert "Traceback" not in logs and "refused" not in logs, logs
