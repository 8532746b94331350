"""The beginner: only legal moves, everywhere; deterministic by seed; it
makes the mistakes it is meant to make."""

from __future__ import annotations

import dataclasses
import random

import pytest
from aihelpers import TABLES, random_positions

from rules_engine import Round, RuleSet, observe
from rules_engine.ai import BeginnerPlayer, make_player
from rules_engine.cards import parse_cards


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_only_legal_moves(label: str, rules: RuleSet, players: int) -> None:
    player = make_player("beginner")
    rng = random.Random(label)
    seen = 0
    for obs in random_positions(rules, players, 160, seed=hash(label) % 1000):
        move = player.choose_move(obs, rng)
        assert move in obs.legal, (label, obs.to_json(), str(move))
        seen += 1
    assert seen == 160


def test_deterministic_for_a_seed() -> None:
    rules = RuleSet.preset("standard")
    positions = list(random_positions(rules, 4, 200, seed=5))
    a = [BeginnerPlayer().choose_move(o, random.Random(i)) for i, o in enumerate(positions)]
    b = [BeginnerPlayer().choose_move(o, random.Random(i)) for i, o in enumerate(positions)]
    assert a == b


def test_leads_weakest_and_sometimes_passes() -> None:
    rules = RuleSet.preset("basic")
    r = Round.start(rules, ["S3 D9 CK", "H4 S5", "HK D2"], leader=0)
    obs = observe(r, 0)
    leads = {str(BeginnerPlayer().choose_move(obs, random.Random(i))) for i in range(200)}
    assert "S3" in leads
    follow = r.apply("S3")
    assert isinstance(follow, Round)
    obs1 = observe(follow, 1)
    choices = [str(BeginnerPlayer().choose_move(obs1, random.Random(i))) for i in range(400)]
    # Mostly the weakest card that follows, sometimes a pass though it could play.
    assert choices.count("H4") > 200
    assert 0 < choices.count("pass") < 200


def test_exchange_return_count() -> None:
    hand = parse_cards("S3 H5 D9 CK S2 JK")
    rules = RuleSet.preset("standard")
    r = Round.start(rules, [hand, "H3", "D3", "C3"], leader=0)
    obs = observe(r, 0)
    for owe in (1, 2):
        fake = dataclasses.replace(obs, owe=owe)
        for i in range(50):
            cards = BeginnerPlayer().choose_return(fake, random.Random(i))
            assert bin(cards & ((1 << 52) - 1)).count("1") + (cards >> 52) == owe
            assert cards & ~hand & ((1 << 52) - 1) == 0
            assert not cards >> 52  # even its slips keep the joker here
