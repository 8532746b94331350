"""Honesty: the advanced player's choice depends on its observation and its
seed only. Two rounds whose observations for the seat are equal but whose
hidden hands differ give exactly the same search and the same move."""

from __future__ import annotations

import random

import pytest
from aihelpers import TABLES, reshuffled_first_round, weakest

from rules_engine import Round, RuleSet, observe
from rules_engine.ai import AdvancedPlayer, Budget, IntermediatePlayer, make_player
from rules_engine.cards import JOKER_SHIFT, JOKER_UNIT
from rules_engine.state import EXCHANGE, PLAY

BUDGET = Budget(playouts=60)


def same_choice(r1: Round, r2: Round, seat: int, seed: int) -> None:
    o1, o2 = observe(r1, seat), observe(r2, seat)
    assert o1 == o2
    assert r1.hands != r2.hands or r1.facedown != r2.facedown
    p1, p2 = AdvancedPlayer(), AdvancedPlayer()
    m1 = p1.choose_move(o1, random.Random(seed), BUDGET)
    m2 = p2.choose_move(o2, random.Random(seed), BUDGET)
    assert m1 == m2
    assert p1.last.means == p2.last.means
    assert p1.last.visits == p2.last.visits
    assert p1.last.mode == p2.last.mode


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_reshuffled_hidden_hands_same_move(label: str, rules: RuleSet, players: int) -> None:
    if players == 2 and rules.hand_size is None:
        pytest.skip("two players and no face-down cards: the other hand is not hidden")
    assert reshuffled_choices(rules, players) >= 1


def reshuffled_choices(rules: RuleSet, players: int, wanted: int = 3) -> int:
    """Up to ``wanted`` first-round positions, each searched in two rounds that differ only
    in hidden hands (:func:`same_choice`); returns how many were checked."""
    checked = 0
    for seed in range(40):
        pair = reshuffled_first_round(rules, players, seed, steps=seed % 23)
        if pair is None:
            continue
        r1, r2, hero = pair
        if len(r1.legal_moves()) < 2:
            continue
        same_choice(r1, r2, hero, seed)
        checked += 1
        if checked == wanted:
            break
    return checked


def test_reshuffled_after_an_exchange() -> None:
    """A second round of a match: the seat's own exchange is the same, the
    other pair's exchange and every other hand differ."""
    rules = RuleSet.preset("standard")
    previous = (0, 1, 2, 3)  # seat 0 daifugo, 3 daihinmin: 0 and 3 exchange
    base = Round.deal(rules, 4, "honest", previous=previous)
    hero = 0
    rng = random.Random(1)
    partner_hand = base.hands[3] + base.exchange[0][2]  # before its gift to seat 0
    hero_hand = base.hands[0] - base.exchange[0][2]
    middle = base.hands[1] + base.hands[2]  # their exchange is between themselves
    done = 0
    for _attempt in range(400):
        cards = [1 << i for i in range(52) if middle >> i & 1]
        cards += [JOKER_UNIT] * (middle >> JOKER_SHIFT)
        rng.shuffle(cards)
        k = len(cards) // 2
        hands = [hero_hand, sum(cards[:k]), sum(cards[k:]), partner_hand]
        r_a = _play_exchange(Round.start(rules, _pre_exchange(base), previous=previous))
        r_b = _play_exchange(Round.start(rules, hands, previous=previous))
        if r_a.hands[0] != r_b.hands[0]:
            continue
        for _ in range(rng.randrange(0, 12)):
            if r_a.phase != PLAY:
                break
            m = random.Random(done).choice(r_a.legal_moves())
            nxt_a, nxt_b = r_a.apply(m), r_b.apply(m)
            if not isinstance(nxt_a, Round) or not isinstance(nxt_b, Round):
                break
            r_a, r_b = nxt_a, nxt_b
        if r_a.phase != PLAY or r_a.to_act != hero or len(r_a.legal_moves()) < 2:
            continue
        if observe(r_a, hero) != observe(r_b, hero):
            continue
        same_choice(r_a, r_b, hero, 17)
        done += 1
        if done == 3:
            break
    assert done >= 1


def _pre_exchange(r: Round) -> list[int]:
    hands = list(r.hands)
    for giver, receiver, cards, _auto in r.exchange:
        hands[receiver] -= cards
        hands[giver] += cards
    return hands


def _play_exchange(r: Round) -> Round:
    player = make_player("intermediate")
    while r.phase == EXCHANGE:
        seat = next(s for s in range(r.n) if r.owed[s])
        cards = player.choose_return(observe(r, seat), random.Random(0))
        out = r.give(seat, cards)
        assert isinstance(out, Round)
        r = out
    return r


def test_weakest_helper() -> None:
    assert weakest(0b1011, 2) == 0b0011


def test_policy_opponents_keep_the_search_honest() -> None:
    # Under UECda's rules the rollouts' other seats draw from the learned policy: the
    # draws come from the seed, so hidden hands still change nothing.
    rules = RuleSet.preset("uecda")
    assert AdvancedPlayer().opponent_model(observe(Round.deal(rules, 5, seed=0), 0)) is not None
    assert reshuffled_choices(rules, 5) >= 1


def test_the_intermediate_levels_short_search_is_honest_too() -> None:
    # Under UECda's rules the intermediate level searches (the advanced player's search
    # at a few playouts): equal observations, different hidden hands, the same move.
    rules = RuleSet.preset("uecda")
    checked = 0
    for seed in range(40):
        pair = reshuffled_first_round(rules, 5, seed, steps=seed % 23)
        if pair is None:
            continue
        r1, r2, hero = pair
        if len(r1.legal_moves()) < 2:
            continue
        o1, o2 = observe(r1, hero), observe(r2, hero)
        assert o1 == o2 and r1.hands != r2.hands
        m1 = IntermediatePlayer(playouts=40).choose_move(o1, random.Random(seed))
        m2 = IntermediatePlayer(playouts=40).choose_move(o2, random.Random(seed))
        assert m1 == m2
        checked += 1
        if checked == 3:
            break
    assert checked == 3
