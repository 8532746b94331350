"""The play log is the narrator's reading of the engine's effects, as each viewer may see it."""

from __future__ import annotations

import pytest
from django.utils import translation

from daifugo_site.play.presenter import describe_step
from rules_engine import Round, RuleSet

from .conftest import make_game

pytestmark = pytest.mark.django_db

HANDS = ["S2 H2 C3 C4", "SA D5 D6", "H7 H8 H9", "HT HJ HQ"]


def test_the_deal_tells_the_automatic_gifts_with_cards_only_to_their_two_seats() -> None:
    game, _key = make_game()
    assert game.human_seat == 0
    r = Round.start(RuleSet.preset("standard"), HANDS, previous=[1, 2, 3, 0])
    with translation.override("zh-hans"):
        owner = describe_step(game, r, 0)
        public = describe_step(game, r, None)
    # seat 0 (last) hands its two strongest to seat 1; seat 3 one card to seat 2
    assert [line.cards for line in owner] == [["S2", "H2"], []]
    assert "黑桃 2" in owner[0].text and owner[0].kind == "exchange"
    assert all(line.cards == [] for line in public)
    assert not any("黑桃" in line.text or "红心" in line.text for line in public)


def test_a_clear_says_why_and_who_leads() -> None:
    game, _key = make_game(preset="basic", pass_until_clear=True)
    r = Round.start(
        RuleSet.preset("basic", pass_until_clear=True),
        ["S6", "C3 C4", "D3 D4", "H8 S9 SK"],
        leader=0,
    )
    for action in ("S6", "pass", "pass", "H8"):
        r = r.apply(action)
    with translation.override("ja"):
        lines = describe_step(game, r, 0)
    assert [line.kind for line in lines] == ["play", "clear"]
    assert "8切り" not in lines[1].text and "返せる人" in lines[1].text
