"""A push carries only the seats, and the part of the panel's summary, that changed; each
part is exactly what the whole page shows for that state (play/rendering.py,
fragment_parts)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from daifugo_site.play import computers, rendering, services
from daifugo_site.play.models import Game
from daifugo_site.play.presenter import table_view
from rules_engine import Action, Match, RuleSet

pytestmark = pytest.mark.django_db


def _states(seed: int, players: int) -> list[tuple[Game, Match]]:
    """Every version of a whole match (the human seat played by a beginner too), as (row,
    match) pairs."""
    game = services.create_game(
        owner="t",
        rules=RuleSet.preset("standard"),
        players=players,
        rounds=3,
        levels=["beginner"] * (players - 1),
        delay_ms=0,
        seed=seed,
    )
    match = services.match_of(game)
    states = [(game, match)]
    while not match.over:
        if match.round.over:
            action = Action.next_round()
        else:
            r = match.round
            seats = [s for s in range(players) if r.owed[s]] or [r.to_act]
            action = computers.computer_action(game, match, seats[0])
        out = match.apply(action)
        assert isinstance(out, Match), out
        match = out
        game = Game(**{f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields})
        game.actions = [*game.actions, action.to_json()]
        game.version += 1
        states.append((game, match))
    return states


OOB = ' hx-swap-oob="true"'
SEAT = re.compile(r'<li id="seat-(\d+)".*?</li>', re.S)
PART = {
    "summary_field": re.compile(r'<div id="summary-field".*?</div>', re.S),
    "summary_players": re.compile(r'<table id="summary-players".*?</table>', re.S),
}


def _seats(html: str) -> dict[str, str]:
    return {m.group(1): m.group(0).replace(OOB, "") for m in SEAT.finditer(html)}


@pytest.mark.parametrize(("seed", "players", "lang"), [(5, 4, "ja"), (9, 5, "zh-hans")])
def test_each_push_sends_the_changed_seats_alone_and_as_the_page_shows_them(
    seed: int, players: int, lang: str
) -> None:
    states = _states(seed, players)
    sent = None
    alone = whole_summaries = 0
    with translation.override(lang):
        for game, match in states:
            view = table_view(game, match, is_owner=True)
            page, _keys = rendering._render(view, None)
            push, new = rendering._render(view, sent)
            if sent is not None:
                # The whole seats section goes only when the seats moved around the table.
                assert 'id="seats"' not in push
                changed = {
                    str(view.seats[i].seat)
                    for i, (a, b) in enumerate(zip(new["seats"], sent["seats"], strict=True))
                    if a != b
                }
                pushed = _seats(push)
                assert set(pushed) == changed
                shown = _seats(page)
                for seat, html in pushed.items():
                    assert html == shown[seat]
                alone += len(pushed)
                assert 'id="summary"' not in push
                for part, pattern in PART.items():
                    found = pattern.search(push)
                    assert (found is not None) == (new[part] != sent[part]), part
                    if found is not None:
                        whole = pattern.search(page)
                        assert whole is not None
                        assert found.group(0).replace(OOB, "", 1) == whole.group(0)
                        whole_summaries += 1
                # Each part pushed alone is swapped in by its own id.
                for fragment in SEAT.finditer(push):
                    assert OOB in fragment.group(0)
            sent = new
    assert alone > len(states)  # seats went alone, move after move
    assert whole_summaries > 0


def test_a_first_push_sends_the_whole_seats_and_summary() -> None:
    game, match = _states(5, 4)[0]
    with translation.override("ja"):
        push, _keys = rendering._render(table_view(game, match, is_owner=True), None)
    assert 'id="seats"' in push and 'id="summary"' in push
    seats = list(SEAT.finditer(push))
    assert len(seats) == 4
    assert all(OOB not in seat.group(0) for seat in seats)
