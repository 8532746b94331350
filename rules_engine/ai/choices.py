"""House-rule choices for the computer players (RULES.md section 8): which cards to give
(7渡し) or discard (10捨て), and which ranks to name (12ボンバー).

Every level reads only what its seat sees: its hand, the order in force and the cards
still unseen. The candidates come best first; the beginner and intermediate levels take
the first, the advanced level searches a few of them like moves.

>>> from rules_engine.cards import parse_cards, format_cards
>>> from rules_engine.rules import RuleSet
>>> rules = RuleSet.preset("house")
>>> hand = parse_cards("S4 D6 H9 C9 SK S2 JK")
>>> format_cards(card_order(hand, rules, False)[0] + card_order(hand, rules, False)[1])
'S4 D6'
>>> format_cards(card_order(hand, rules, True)[0])   # in a revolution the 2 is weakest
'S2'
"""

from __future__ import annotations

from itertools import combinations

from ..cards import (
    JOKER_SHIFT,
    NUM_RANKS,
    RANK_2,
    RANK_3,
    RANK_8,
    REAL_MASK,
    SPADE_3,
    full_deck,
)
from ..observation import Observation
from ..rules import RuleSet
from ..state import NAME_CHOICE, Round
from .base import strength

#: Candidates the advanced level searches for one choice.
SEARCHED_CHOICES = 6


def card_order(hand: int, rules: RuleSet, rev: bool) -> list[int]:
    """The hand's cards (one bit each, a joker as the joker unit) from the one least worth
    keeping to the one most worth keeping under the order in force: lone weak cards first,
    pairs and sequence cards later, the top rank, 8s that cut and the spade 3 that answers
    a joker kept, jokers last."""
    real = hand & REAL_MASK
    in_sequence = _sequence_cards(real, rules.sequence_min)
    top = RANK_3 if rev else RANK_2
    scored: list[tuple[float, int]] = []
    bits = real
    while bits:
        low = bits & -bits
        bits ^= low
        rank = (low.bit_length() - 1) >> 2
        score = float(strength(rank, rev))
        same = ((real >> (4 * rank)) & 0xF).bit_count()
        if same >= 2:
            score += 6.0 + 2.0 * (same - 2)
        if low & in_sequence:
            score += 6.0
        if rank == top:
            score += 50.0
        if rank == RANK_8 and rules.eight_cut != "off":
            score += 8.0
        if low == SPADE_3 and rules.spade3_return and rules.jokers and not hand >> JOKER_SHIFT:
            score += 8.5
        scored.append((score, low))
    for _ in range(hand >> JOKER_SHIFT):
        scored.append((100.0, 1 << JOKER_SHIFT))
    scored.sort(key=lambda t: (t[0], t[1] & REAL_MASK))
    return [card for _, card in scored]


def _sequence_cards(real: int, seq_min: int) -> int:
    # Cards in a run of seq_min or more of one suit.
    cards = 0
    for suit in range(4):
        run: list[int] = []
        for rank in range(NUM_RANKS + 1):
            bit = 1 << (4 * rank + suit) if rank < NUM_RANKS else 0
            if bit and real & bit:
                run.append(bit)
                continue
            if len(run) >= seq_min:
                cards |= sum(run)
            run = []
    return cards


def rank_scores(hand: int, unseen: int, rev: bool) -> list[float]:
    """How much naming each rank is worth to this seat: its own cards of a weak rank shed
    (good), of a strong one lost (bad); the others' cards the other way round."""
    scores = []
    for rank in range(NUM_RANKS):
        mine = ((hand >> (4 * rank)) & 0xF).bit_count()
        theirs = ((unseen >> (4 * rank)) & 0xF).bit_count()
        worth = strength(rank, rev) / 12.0
        scores.append((mine - theirs) * (0.6 - worth))
    return scores


def choice_candidates(
    kind: int, k: int, hand: int, unseen: int, rules: RuleSet, rev: bool, limit: int = 1
) -> list[int]:
    """Up to ``limit`` legal choices, best first: card sets of ``k`` cards to give or
    discard (the least worth keeping), or sets of ``k`` ranks to name."""
    if kind == NAME_CHOICE:
        scores = rank_scores(hand, unseen, rev)
        order = sorted(range(NUM_RANKS), key=lambda r: -scores[r])
        pool = order[: max(k + 2, k)]
        picks: list[int] = [sum(1 << r for r in order[:k])]
        for combo in combinations(pool, k):
            ranks = sum(1 << r for r in combo)
            if ranks not in picks:
                picks.append(ranks)
            if len(picks) >= limit:
                break
        return picks[:limit]
    order = card_order(hand, rules, rev)
    best = sum(order[:k])
    picks = [best]
    pool = order[: k + 2]
    for combo in combinations(pool, k):
        cards = sum(combo)
        if cards not in picks:
            picks.append(cards)
        if len(picks) >= limit:
            break
    return picks[:limit]


def observation_choices(obs: Observation, limit: int = 1) -> list[int]:
    """The candidates for the choice ``obs``'s seat owes (best first)."""
    owed = obs.owed_choice
    if owed is None or owed[0] != obs.seat:
        raise ValueError("this seat owes no choice")
    _, kind, k, _ = owed
    rev = obs.revolution ^ obs.jback
    return choice_candidates(kind, k, obs.hand, obs.unseen(), obs.rules, rev, limit)


def round_choice(r: Round) -> int:
    """The heuristic choice for the seat that owes one in ``r`` (a playout's), from what
    that seat would see: its hand and the cards not yet shown."""
    owed = r.owed_choice()
    assert owed is not None
    seat, kind, k, _ = owed
    hand = r.hands[seat]
    shown = hand + r.discarded
    for _, move in r.actions():
        shown += move.cards
    unseen = full_deck(r.rules.jokers) & REAL_MASK & ~(shown & REAL_MASK)
    return choice_candidates(kind, k, hand, unseen, r.rules, r.reversed)[0]


def apply_choice(r: Round, choice: int) -> Round:
    """``r`` after the seat that owes a choice makes ``choice`` (it must be legal)."""
    owed = r.owed_choice()
    assert owed is not None
    out = r.name(owed[0], choice) if owed[1] == NAME_CHOICE else r.choose(owed[0], choice)
    if not isinstance(out, Round):  # pragma: no cover - the candidates are legal
        raise RuntimeError(f"choice refused: {out.reason}")
    return out
