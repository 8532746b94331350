"""Exchange returns: the right number of the player's own cards, accepted by
the engine, and sensible (the intermediate and advanced players never hand
back a joker or a 2 while they hold other cards)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules_engine import Round, RuleSet, observe
from rules_engine.ai import LEVELS, Budget, make_player
from rules_engine.ai.heuristics import return_cards
from rules_engine.cards import (
    JOKER_SHIFT,
    RANK_MASKS,
    REAL_MASK,
    count,
    format_cards,
    parse_cards,
)
from rules_engine.state import EXCHANGE, PLAY

TWOS = RANK_MASKS[12]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("preset", "players"),
    [("standard", 4), ("party", 3), ("party", 4), ("classic", 5), ("classic", 6), ("basic", 3)],
)
def test_returns_are_accepted_by_the_engine(level: str, preset: str, players: int) -> None:
    rules = RuleSet.preset(preset)
    player = (
        make_player(level, budget=Budget(playouts=60))
        if level == "advanced"
        else make_player(level)
    )
    rng = random.Random(level + preset)
    for i in range(40):
        previous = list(range(players))
        rng.shuffle(previous)
        r = Round.deal(rules, players, f"x{i}", previous=previous)
        assert r.phase == EXCHANGE
        while r.phase == EXCHANGE:
            seat = next(s for s in range(players) if r.owed[s])
            obs = observe(r, seat)
            cards = player.choose_return(obs, rng)
            assert count(cards) == obs.owe
            out = r.give(seat, cards)
            assert isinstance(out, Round), out
            r = out
        assert r.phase == PLAY


@pytest.mark.parametrize("level", ["intermediate", "advanced"])
def test_never_returns_joker_or_two_while_holding_other_cards(level: str) -> None:
    # The advanced player searches its returns; a few playouts keep 1,200 of them quick.
    player = (
        make_player(level, budget=Budget(playouts=6)) if level == "advanced" else make_player(level)
    )
    rng = random.Random(7)
    checked = 0
    for preset in ("standard", "party", "classic", "basic"):
        rules = RuleSet.preset(preset)
        for i in range(150):
            r = Round.deal(rules, 4, f"{preset}:{i}", previous=[0, 1, 2, 3])
            for seat in (0, 1):
                obs = observe(r, seat)
                for owe in (1, 2):
                    cards = player.choose_return(dataclasses.replace(obs, owe=owe), rng)
                    hand = obs.hand
                    assert count(cards) == owe and cards & REAL_MASK & ~hand == 0
                    others = count(hand & REAL_MASK & ~TWOS)
                    if others >= owe:
                        assert not cards >> JOKER_SHIFT, format_cards(hand)
                        assert not cards & TWOS, format_cards(hand)
                    checked += 1
    assert checked == 4 * 150 * 2 * 2


def test_returns_lone_weak_cards_before_breaking_pairs() -> None:
    rules = RuleSet.preset("standard")
    hand = parse_cards("S3 H3 D5 C6 S7 H7 DQ S2 JK")
    assert format_cards(return_cards(hand, 2, rules)) == "D5 C6"
    assert format_cards(return_cards(hand, 1, rules)) == "D5"
    # Nothing but strong cards left: then a 2 goes, never the joker first.
    assert format_cards(return_cards(parse_cards("S2 H2 JK"), 2, rules)) == "S2 H2"
    assert return_cards(hand, 0, rules) == 0


def test_keeps_eights_and_the_spade_three_when_they_have_a_use() -> None:
    rules = RuleSet.preset("standard")  # 8-cut and spade-3 return
    hand = parse_cards("S3 D8 H9 CT SJ")
    assert format_cards(return_cards(hand, 2, rules)) == "H9 CT"
    basic = RuleSet.preset("basic")  # neither rule
    assert format_cards(return_cards(hand, 2, basic)) == "S3 D8"
