"""Which sound a push asks for comes from the engine's effects (through the narrator's
lines) and the view's own turn, never from comparing two states in the browser."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from daifugo_site.play import cues
from daifugo_site.play.models import Game
from daifugo_site.ui.narrator import narrate
from rules_engine import Match, RuleSet
from rules_engine import effects as fx
from rules_engine.effects import Effect

from .conftest import PlayClient
from .test_ws_game import first_play


def _name(seat: int) -> str:
    return f"S{seat}"


def test_an_eight_cut_is_told_by_the_clear_and_still_sounds_as_a_cut() -> None:
    lines = narrate(
        [Effect(fx.EIGHT_CUT, seat=1), Effect(fx.CLEARED, seat=1, reason="eight_cut")], _name
    )
    assert len(lines) == 1
    assert lines[0].effects == (fx.EIGHT_CUT, fx.CLEARED)
    assert cues.for_events(lines) == ["cut"]


def test_a_clear_by_passes_is_no_cut() -> None:
    lines = narrate(
        [Effect(fx.PASSED, seat=2), Effect(fx.CLEARED, seat=1, reason="all_passed")], _name
    )
    assert cues.for_events(lines) == []


def test_a_revolution_comes_before_the_play_that_made_it() -> None:
    move = next(
        m
        for m in Match.new(RuleSet.preset("standard"), 4, 1, 3).round.legal_moves()
        if not m.is_pass
    )
    lines = narrate([Effect(fx.PLAYED, seat=0, move=move), Effect(fx.REVOLUTION, on=True)], _name)
    assert cues.for_events(lines) == ["revolution", "play"]
    # Ending a revolution is a revolution's sound too.
    assert cues.for_events(narrate([Effect(fx.REVOLUTION, on=False)], _name)) == ["revolution"]


def test_the_end_of_a_round_and_the_turn() -> None:
    lines = narrate([Effect(fx.WENT_OUT, seat=0, place=1), Effect(fx.ROUND_OVER)], _name)
    assert cues.for_events(lines) == ["round"]
    assert cues.for_events([], turn=True) == ["turn"]


def _cues(message: str) -> list[str]:
    found = re.search(r'id="table-version"[^>]*data-cues="([a-z ]*)"', message)
    assert found is not None, message[:200]
    return found.group(1).split()


@pytest.mark.django_db(transaction=True)
async def test_pushes_carry_the_cues_of_what_happened_since_the_page_last_heard(
    game_factory,
) -> None:
    game, key = await game_factory(seed=0)  # seed 0: the human holds the diamond 3, leads
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    client = PlayClient(game.id, key)
    table = await client.connect()
    # A page that just opened plays nothing.
    assert _cues(client.messages[0]) == []
    assert table.your_turn
    await client.send(first_play(table))
    await client.receive()
    assert _cues(client.messages[-1])[-1] == "play"
    # The round's first line is appended, not the log sent whole: a quick message said
    # before it (added to the page's log) stays where it was.
    assert '<ol id="log-list" hx-swap-oob="beforeend">' in client.messages[-1]
    assert '<section id="log"' not in client.messages[-1]
    await client.close()
