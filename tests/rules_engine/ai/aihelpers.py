"""Shared helpers of the computer-player tests: random positions of every
preset and table size, and consistent reshuffles of hidden hands."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules_engine import Move, Observation, Round, RuleSet, observe
from rules_engine.bench import play_random_round
from rules_engine.cards import JOKER_SHIFT, JOKER_UNIT, REAL_MASK, count
from rules_engine.state import EXCHANGE, PLAY

#: Every preset at every table size, plus the rated 1v1 game.
TABLES: list[tuple[str, RuleSet, int]] = [
    (f"{preset}-{n}", RuleSet.preset(preset), n)
    for preset in ("standard", "party", "classic", "basic")
    for n in range(2, 7)
] + [("1v1", RuleSet.preset("standard", hand_size=13), 2)]


def random_positions(
    rules: RuleSet, players: int, count_wanted: int, seed: int, exchange: bool = True
) -> Iterator[Observation]:
    """Observations of the seat to act, at random points of random rounds.

    Rounds are played with uniform random legal moves; with ``exchange`` and
    3+ players half of them are second rounds of a match (exchange done with
    the weakest cards).
    """
    rng = random.Random(seed)
    made = 0
    deal = 0
    while made < count_wanted:
        deal += 1
        previous = None
        if exchange and players >= 3 and deal % 2 == 0:
            previous = list(range(players))
            rng.shuffle(previous)
        r = Round.deal(rules, players, f"{seed}:{deal}", previous=previous)
        while r.phase == EXCHANGE:
            seat = next(s for s in range(players) if r.owed[s])
            out = r.give(seat, weakest(r.hands[seat], r.owed[seat]))
            assert isinstance(out, Round)
            r = out
        # Visit a few points of this round.
        while r.phase == PLAY and made < count_wanted:
            if rng.random() < 0.35:
                yield observe(r, r.to_act)
                made += 1
            nxt = r.apply(rng.choice(r.legal_moves()))
            assert isinstance(nxt, Round)
            r = nxt


def weakest(hand: int, k: int) -> int:
    """The ``k`` weakest cards of a hand (jokers last)."""
    cards = [1 << i for i in range(52) if hand >> i & 1]
    cards += [JOKER_UNIT] * (hand >> JOKER_SHIFT)
    chosen = 0
    for c in cards[:k]:
        chosen += c
    return chosen


def play_round_prefix(r: Round, rng: random.Random, steps: int) -> tuple[Round, list[Move]]:
    """Play up to ``steps`` random moves; the round and the moves played."""
    moves: list[Move] = []
    for _ in range(steps):
        if r.phase != PLAY:
            break
        m = rng.choice(r.legal_moves())
        nxt = r.apply(m)
        assert isinstance(nxt, Round)
        moves.append(m)
        r = nxt
    return r, moves


def reshuffled_first_round(
    rules: RuleSet, players: int, seed: int, steps: int
) -> tuple[Round, Round, int] | None:
    """Two first rounds with the same public history and the same hand for
    the seat to act (returned third) but the other hands and the face-down
    cards dealt differently.

    ``None`` when the random prefix ends the round.
    """
    rng = random.Random(seed)
    r0 = Round.deal(rules, players, f"h{seed}")
    leader = r0.first_leader
    r, moves = play_round_prefix(r0, rng, steps)
    if r.phase != PLAY:
        return None
    hero = r.to_act
    # What each other seat played is public; the rest of its start hand is not.
    played = [0] * players
    for seat, m in r.actions():
        played[seat] += m.cards
    hidden = sum(r0.hands[s] - played[s] for s in range(players) if s != hero) + r0.facedown
    pool = [1 << i for i in range(52) if hidden >> i & 1]
    pool += [JOKER_UNIT] * (hidden >> JOKER_SHIFT)
    for _attempt in range(50):
        rng.shuffle(pool)
        hands = list(r0.hands)
        i = 0
        for s in range(players):
            if s == hero:
                continue
            k = count(r0.hands[s]) - count(played[s])
            hands[s] = played[s] + sum(pool[i : i + k])
            i += k
        if hands == list(r0.hands) and hidden & REAL_MASK:
            continue
        facedown = sum(pool[i:])
        r1 = Round.start(rules, hands, leader=leader, facedown=facedown)
        for m in moves:
            nxt = r1.apply(m)
            if not isinstance(nxt, Round):
                break
            r1 = nxt
        else:
            return r, r1, hero
    return None


def finish(r: Round, rng: random.Random) -> Round:
    """Play a round to its end with random moves."""
    return play_random_round(r, rng)[0]
