"""What one seat sees (RULES.md section 7): its own hand and public facts, nothing else."""

import dataclasses
import random

import pytest
from engine_testlib import (
    ALL_PRESETS,
    OBSERVATION_FIELDS,
    check_observation,
    random_match,
    random_subset,
    start,
)

from rules_engine import Observation, Round, RuleSet, observe, round_from_observation
from rules_engine.cards import REAL_MASK, count, format_cards, full_deck


def test_an_observation_has_only_the_reviewed_fields():
    assert {f.name for f in dataclasses.fields(Observation)} == OBSERVATION_FIELDS


def test_a_match_observation_carries_the_public_scores():
    rng = random.Random(3)
    states = random_match(RuleSet.preset("standard"), 4, 3, "scores", rng)
    later = next(m for m in states if m.results and not m.round.over)
    obs = later.observe(2)
    assert obs.scores == later.scores and sum(obs.scores) == 6
    assert obs.to_json()["scores"] == list(later.scores)
    assert observe(later.round, 2).scores is None


CONFIGS = [(preset, players) for preset in ALL_PRESETS for players in (2, 3, 4, 5, 6)]


@pytest.mark.parametrize("preset, players", CONFIGS)
def test_no_observation_leaks_a_hidden_card(preset, players):
    rng = random.Random(f"obs{preset}{players}")
    checked = 0
    for game in range(2):
        states = random_match(RuleSet.preset(preset), players, 3, f"{game}", rng)
        for i, m in enumerate(states):
            for seat in range(players):
                check_observation(m.round, seat, as_json=i % 4 == 0)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    "preset, players, hand_size", [("standard", 2, 13), ("basic", 4, 8), ("party", 3, 5)]
)
def test_face_down_cards_are_never_seen(preset, players, hand_size):
    rules = RuleSet.preset(preset, hand_size=hand_size)
    rng = random.Random(hand_size)
    for game in range(4):
        states = random_match(rules, players, 3 if players > 2 else 1, game, rng)
        assert count(states[0].round.facedown) == count(full_deck(rules.jokers)) - (
            hand_size * players
        )
        for m in states:
            for seat in range(players):
                obs = check_observation(m.round, seat)
                facedown = m.round.facedown & REAL_MASK
                assert obs.unseen() & facedown == facedown


def test_an_observation_of_given_hands():
    r = start(["S3 H3", "HK C7", "D6 JK"], "basic")
    obs = observe(r, 1)
    assert obs.hand_text == "C7 HK"
    assert obs.counts == (2, 2, 2)
    assert obs.to_act == 0
    assert obs.my_turn is False
    assert obs.legal == ()
    assert obs.field is None and obs.history == ()
    assert observe(r, 0).my_turn
    assert {str(m) for m in observe(r, 0).legal} == {"S3", "H3", "S3 H3"}
    r2 = r.apply("S3")
    obs2 = observe(r2, 2)
    assert str(obs2.field) == "S3" and obs2.field_seat == 0
    assert [(s, str(m)) for s, m in obs2.history] == [(0, "S3")]
    assert obs2.played() == r2.actions()[0][1].cards


def test_unseen_cards_are_the_rest_of_the_deck():
    r = start(["S3 H3", "HK C7", "D6 JK"], "basic").apply("S3")
    obs = observe(r, 1)
    unseen = obs.unseen()
    deck = full_deck(1)
    assert unseen == deck - r.hands[1] - r.actions()[0][1].cards
    assert count(unseen) == 53 - 2 - 1


def test_exchange_cards_are_seen_by_both_partners_only():
    r = start(
        ["C3 C4", "D3 D4", "D2 S2 H2 C5", "JK S4"],
        "standard",
        leader=None,
        previous=[1, 0, 3, 2],
    )
    # seat 2 gave S2 H2 to seat 1; seat 3 gave the joker to seat 0
    assert format_cards(observe(r, 1).got) == "S2 H2"
    assert format_cards(observe(r, 2).gave) == "S2 H2"
    assert observe(r, 1).owe == 2 and observe(r, 1).partner == 2
    assert observe(r, 0).got >> 52 == 1
    assert observe(r, 3).gave >> 52 == 1
    assert observe(r, 0).gave == 0 and observe(r, 2).got == 0
    r = r.give(1, "D3 D4")
    assert format_cards(observe(r, 2).got) == "D3 D4"
    assert format_cards(observe(r, 1).gave) == "D3 D4"
    assert observe(r, 0).got & observe(r, 2).got == 0
    assert observe(r, 1).known_cards() == {2: r.hands[2] & observe(r, 1).gave}


# -- rebuilding a round from an observation --------------------------------------------------


def deal_unseen(obs, r, rng):
    """Other hands of the observed sizes, drawn from the cards the seat cannot see."""
    unseen = obs.unseen()
    units = [1 << i for i in range(52) if unseen >> i & 1] + [1 << 52] * (unseen >> 52)
    rng.shuffle(units)
    hands = []
    for seat in range(obs.players):
        if seat == obs.seat:
            hands.append(obs.hand)
        else:
            k = obs.counts[seat]
            hands.append(sum(units[:k]))
            units = units[k:]
    return hands


def public(obs):
    return dataclasses.replace(obs, gave=0, got=0)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_round_from_observation_rebuilds_an_equal_public_state(preset):
    rng = random.Random(preset)
    for players in (3, 4):
        states = random_match(RuleSet.preset(preset), players, 3, preset, rng)
        for m in states[::3]:
            r = m.round
            if r.phase_name == "exchange":
                continue
            for seat in range(players):
                obs = observe(r, seat)
                rebuilt = round_from_observation(obs, list(r.hands))
                assert public(observe(rebuilt, seat)) == public(obs)
                assert rebuilt.hands == r.hands
                assert rebuilt.legal_moves() == r.legal_moves()
                assert rebuilt.actions() == r.actions()
                hidden_gift = any(c[0] == 0 and seat not in (c[1], c[2]) for c in r.choices)
                if not r.exchange and not r.facedown and not hidden_gift and r.phase_name == "play":
                    assert rebuilt == r
                # a world with other hidden hands looks the same from this seat
                world = round_from_observation(obs, deal_unseen(obs, r, rng))
                assert public(observe(world, seat)) == public(obs)
                assert world.counts() == r.counts()


def test_a_rebuilt_round_plays_on_like_the_real_one():
    rng = random.Random(8)
    states = random_match(RuleSet.preset("standard"), 4, 1, 3, rng)
    for m in states[1:-1:5]:
        r = m.round
        seat = r.to_act
        rebuilt = round_from_observation(observe(r, seat), list(r.hands))
        for move in r.legal_moves():
            assert rebuilt.apply(move) == r.apply(move)


def test_round_from_observation_needs_the_seats_own_hand():
    r = Round.deal(RuleSet.preset("standard"), 4, 1)
    obs = observe(r, 0)
    hands = list(r.hands)
    hands[0] = random_subset(random.Random(0), hands[1], 3)
    with pytest.raises(ValueError):
        round_from_observation(obs, hands)
