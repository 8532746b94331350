"""The heuristic hand planner: the intermediate level's moves under the site's presets,
the advanced player's rollouts and the learned policy's features all use it.

The hand is planned as a few combinations (:func:`plan`): sequences where
they save turns, then every rank as one group, each joker on its own. The
player leads its weakest combination, follows only with a whole combination
(never breaking a pair, triple or sequence unless it must), keeps jokers and
top cards to regain the lead, counts the cards still unseen to know which of
its combinations nobody can beat, cuts with 8s, returns jokers with the
spade 3, starts a revolution when its hand is weak, plays its "forbidden
finish" cards before its last combination, and presses (plays its strong
cards, leads what a short hand cannot follow) when an opponent is about to
go out.

The same decision functions, fed from a :class:`~rules_engine.state.Round`
of a *sampled* world instead of an observation, are the advanced player's
fast rollout policy (:func:`rollout_move`). The player itself, which under UECda's
rules searches instead, is :mod:`~rules_engine.ai.intermediate`: it builds on the
advanced player, which builds on this module, so what both share lives here.

>>> from rules_engine.cards import parse_cards
>>> [str(u) for u in plan(parse_cards("S3 S4 S5 H9 D9 CK JK"), RuleSet.preset("basic"), False)]
['S3 S4 S5', 'H9 D9', 'CK', 'JK']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..cards import (
    JOKER_RANK,
    JOKER_SHIFT,
    NUM_RANKS,
    RANK_2,
    RANK_3,
    RANK_8,
    REAL_MASK,
    SPADE_3,
    count,
    suit_lanes,
)

# A play's rule effects are the engine's own predicates, never copies: what the engine
# does when it applies a move is what this player expects of it.
from ..effects import cuts, forbidden_finish, toggles_revolution
from ..moves import LONE_JOKER, PASS, PASS_FORM, SEQUENCE, SINGLE, Move
from ..observation import Observation
from ..rules import RuleSet
from ..state import Round
from .base import group_move, sequence_move, strength

# -- planning ---------------------------------------------------------------------------

#: Plans by hand and the options a plan depends on, packed in one int (an int key
#: hashes far faster than a tuple; planning is on every rollout step).
_PLAN_CACHE: dict[int, list[Move]] = {}
_PLAN_CACHE_LIMIT = 20_000


def set_plan_cache_limit(entries: int) -> None:
    """Bound the plans cache to ``entries`` hands (20,000 by default), as
    :func:`rules_engine.moves.set_sequence_cache_limit` does for sequences: a process
    that plays the heuristic levels now and then, not a search, needs a few thousand.

    >>> from rules_engine.ai import heuristics
    >>> heuristics.set_plan_cache_limit(100)
    >>> heuristics._PLAN_CACHE_LIMIT
    100
    >>> heuristics.set_plan_cache_limit(20_000)
    """
    global _PLAN_CACHE_LIMIT
    if entries < 1:
        raise ValueError("the cache holds at least one entry")
    _PLAN_CACHE_LIMIT = entries
    if len(_PLAN_CACHE) > entries:
        _PLAN_CACHE.clear()


def plan(hand: int, rules: RuleSet, rev: bool) -> list[Move]:
    """Split a hand into combinations, weakest first under the order ``rev``.

    Sequences are taken where they replace at least two lone cards; the rest
    of each rank stays one group; each joker is its own unit.
    """
    key = (hand << 6) | (rules.sequence_min << 3) | (rules.jokers << 1) | rev
    cached = _PLAN_CACHE.get(key)
    if cached is not None:
        return cached
    units: list[Move] = []
    real = hand & REAL_MASK
    seq_min = rules.sequence_min
    has_sequence = False
    if real.bit_count() >= seq_min:
        lanes = suit_lanes(real)
        runs = lanes
        for i in range(1, seq_min):
            runs &= lanes >> i
        if runs & _LANE_RUN_MASK[seq_min]:
            counts = [((real >> (4 * r)) & 0xF).bit_count() for r in range(NUM_RANKS)]
            for s in range(4):
                lane = (lanes >> (16 * s)) & 0x1FFF
                while lane.bit_count() >= seq_min:
                    best = _best_window(lane, counts, seq_min)
                    if best is None:
                        break
                    lo, hi = best
                    cards = 0
                    for r in range(lo, hi + 1):
                        cards |= 1 << (4 * r + s)
                        counts[r] -= 1
                    lane &= ~(((1 << (hi - lo + 1)) - 1) << lo)
                    move = sequence_move(cards, rev, seq_min)
                    if move is None:  # pragma: no cover - a plain run is a sequence
                        break
                    real &= ~cards
                    units.append(move)
                    has_sequence = True
    for r in range(NUM_RANKS):
        nb = (real >> (4 * r)) & 0xF
        if nb:
            units.append(group_move(nb << (4 * r)))
    for _ in range(hand >> JOKER_SHIFT):
        units.append(LONE_JOKER)
    if rev or has_sequence:
        units.sort(key=lambda u: unit_strength(u, rev))
    if len(_PLAN_CACHE) >= _PLAN_CACHE_LIMIT:
        _PLAN_CACHE.clear()
    _PLAN_CACHE[key] = units
    return units


#: Where a run of ``seq_min`` ranks may start in each 16-bit suit lane.
_LANE_RUN_MASK = {
    k: sum(((1 << (NUM_RANKS - k + 1)) - 1) << (16 * s) for s in range(4)) for k in (3, 4, 5)
}


def _best_window(lane: int, counts: list[int], seq_min: int) -> tuple[int, int] | None:
    """The run of one suit's ranks worth playing as a sequence, if any.

    Gain: lone cards it absorbs, minus one for the sequence itself, minus
    the pairs and triples it would break.
    """
    best: tuple[int, int] | None = None
    best_gain = 0.0
    r = 0
    while r < NUM_RANKS:
        if not (lane >> r) & 1:
            r += 1
            continue
        start = r
        while r < NUM_RANKS and (lane >> r) & 1:
            r += 1
        end = r - 1
        if end - start + 1 < seq_min:
            continue
        for lo in range(start, end - seq_min + 2):
            gain = -1.0
            for hi in range(lo, end + 1):
                c = counts[hi]
                gain += 1.0 if c == 1 else -0.75 if c == 2 else -1.25
                if hi - lo + 1 >= seq_min and gain > best_gain:
                    best_gain = gain
                    best = (lo, hi)
    return best


def unit_strength(u: Move, rev: bool) -> int:
    """How strong a combination is to lead or to hold, 0..13."""
    if u.form == SEQUENCE:
        return 12 - u.high if rev else u.low
    return strength(u.rank, rev)


# -- the decision context -------------------------------------------------------------------


#: ``_STRONGER[rev][rank]``: the ordinary ranks stronger than ``rank`` under an order.
_STRONGER = tuple(
    tuple(
        tuple(r for r in range(NUM_RANKS) if strength(r, rev) > strength(rank, rev))
        for rank in range(NUM_RANKS + 1)
    )
    for rev in (False, True)
)


class Context:
    """What a decision needs, from an observation or from a sampled round.

    ``others`` is every card an opponent might hold (real cards) and
    ``other_jokers`` how many jokers they might hold.
    """

    __slots__ = (
        "rules",
        "hand",
        "top",
        "revolution",
        "rev",
        "others",
        "other_jokers",
        "_orank",
        "opp_min",
        "owner_count",
        "lock",
    )

    def __init__(
        self,
        rules: RuleSet,
        hand: int,
        top: Move | None,
        revolution: bool,
        rev: bool,
        others: int,
        other_jokers: int,
        opp_min: int,
        owner_count: int,
        lock: int = 0,
    ) -> None:
        self.rules = rules
        self.hand = hand
        self.top = top
        self.revolution = revolution
        self.rev = rev
        self.others = others
        self.other_jokers = other_jokers
        self._orank: list[int] | None = None
        self.opp_min = opp_min
        self.owner_count = owner_count
        #: The suits locked on the field (0: none).
        self.lock = lock

    @property
    def orank(self) -> list[int]:
        """Unseen ordinary cards per rank."""
        if self._orank is None:
            others = self.others
            self._orank = [((others >> (4 * r)) & 0xF).bit_count() for r in range(NUM_RANKS)]
        return self._orank

    def safe(self, u: Move) -> bool:
        """Whether no opponent can beat ``u`` on a fresh field (suit locks,
        8-cuts and revolutions aside)."""
        rules = self.rules
        if u.form == SEQUENCE:
            return self._sequence_safe(u)
        size = u.size
        if u.rank == JOKER_RANK:
            if size == 1:
                return not (rules.spade3_return and self.others & SPADE_3)
            return True
        oj = self.other_jokers
        if oj >= size:
            return False
        orank = self.orank
        need = size - oj
        for r in _STRONGER[self.rev][u.rank]:
            if orank[r] >= need:
                return False
        return True

    def _sequence_safe(self, u: Move) -> bool:
        size = u.size
        oj = self.other_jokers
        lanes = suit_lanes(self.others)
        rev = self.rev
        above_top = self.rules.sequence_beats == "above_top"
        for s in range(4):
            lane = (lanes >> (16 * s)) & 0x1FFF
            if lane.bit_count() + oj < size:
                continue
            for lo in range(NUM_RANKS - size + 1):
                hi = lo + size - 1
                if rev:
                    if not hi < (u.low if above_top else u.high):
                        continue
                elif not lo > (u.high if above_top else u.low):
                    continue
                window = ((1 << size) - 1) << lo
                if size - (lane & window).bit_count() <= oj:
                    return False
        return True


def context_from_observation(obs: Observation) -> Context:
    unseen = obs.unseen()
    opp = [c for s, c in enumerate(obs.counts) if s != obs.seat and c > 0]
    owner = obs.field_seat
    owner_count = obs.counts[owner] if owner is not None and owner != obs.seat else 99
    return Context(
        obs.rules,
        obs.hand,
        obs.field,
        obs.revolution,
        obs.revolution ^ obs.jback,
        unseen & REAL_MASK,
        unseen >> JOKER_SHIFT,
        min(opp) if opp else 99,
        owner_count if owner_count > 0 else 99,
        obs.lock,
    )


# -- decisions ---------------------------------------------------------------------------------


def _mean_strength(cards: int, rev: bool) -> float:
    total = 0
    n = 0
    for r in range(NUM_RANKS):
        c = ((cards >> (4 * r)) & 0xF).bit_count()
        if c:
            total += c * strength(r, rev)
            n += c
    return total / n if n else 6.0


def choose_lead(ctx: Context, units: list[Move]) -> Move:
    """The combination to lead on an empty field."""
    rules = ctx.rules
    rev = ctx.rev
    if len(units) == 1:
        return units[0]
    revolution = ctx.revolution
    if rules.ff_mask:
        ff = [forbidden_finish(u, rules, revolution, None) for u in units]
    else:
        ff = [False] * len(units)
    safe = [ctx.safe(u) for u in units]
    unsafe = [i for i in range(len(units)) if not safe[i]]

    # A revolution when the rest of the hand is weak; otherwise it waits,
    # the more the stronger the rest is.
    revo_cost: dict[int, float] = {}
    revo_min = _revolution_min(rules)
    for i, u in enumerate(units):
        if u.size >= revo_min and toggles_revolution(u, rules):
            rest = ctx.hand & REAL_MASK & ~u.cards
            gain = _mean_strength(rest, not rev) - _mean_strength(rest, rev) if rest else 0.0
            if rest and gain >= 1.0:
                return u
            revo_cost[i] = 4.0 * max(0.0, -gain)

    # Winning line: every combination but one is unbeatable. Lead the
    # unbeatable ones (forbidden finishes and 8s first), the last one last.
    if len(unsafe) <= 1:
        order = sorted(
            (i for i in range(len(units)) if safe[i]),
            key=lambda i: (
                toggles_revolution(units[i], rules),
                not ff[i],
                not cuts(units[i], rules),
                unit_strength(units[i], rev),
            ),
        )
        if order:
            # Keep one unit that may legally finish for the very end.
            finishers = [i for i in range(len(units)) if not ff[i]]
            if len(finishers) == 1 and finishers[0] == order[0] and len(order) > 1:
                return units[order[1]]
            return units[order[0]]
        return units[unsafe[0]]

    # Forbidden finishes must not be left for last: shed them while there
    # is still something else to finish with.
    if len(units) <= 3:
        ffi = [i for i in range(len(units)) if ff[i]]
        if ffi and len(ffi) < len(units):
            return units[max(ffi, key=lambda i: (cuts(units[i], rules), safe[i]))]

    # Press: an opponent is about to go out; lead what a short hand cannot follow.
    if ctx.opp_min <= 2:
        bigger = [i for i in unsafe if units[i].size > ctx.opp_min]
        if bigger:
            return units[min(bigger, key=lambda i: unit_strength(units[i], rev))]
        return units[max(range(len(units)), key=lambda i: unit_strength(units[i], rev))]

    cut_rules = rules.eight_cut != "off"
    keep_s3 = rules.spade3_return and ctx.other_jokers > 0
    best = unsafe[0]
    best_score = 1e9
    for i in unsafe:
        u = units[i]
        if u.form == SEQUENCE:
            score = (12 - u.high if rev else u.low) - 1.2 * (u.size - 1)
        else:
            score = strength(u.rank, rev) - 1.2 * (u.size - 1)
        if cut_rules and cuts(u, rules):
            score += 6.0
        if keep_s3 and u.cards == SPADE_3:
            score += 5.0
        if revo_cost:
            score += revo_cost.get(i, 0.0)
        if score < best_score:
            best_score = score
            best = i
    return units[best]


def _revolution_min(rules: RuleSet) -> int:
    """The fewest cards a play needs to toggle revolution (99: never)."""
    if not rules.revolution:
        return 99
    smin = rules.revolution_sequence_min
    return min(rules.revolution_group_min, smin if smin is not None else 99)


def _is_reserve(m: Move, rev: bool) -> bool:
    """Cards kept to regain the lead: jokers and the top rank."""
    if m.form == SEQUENCE:
        return False
    if m.rank == JOKER_RANK:
        return True
    return m.rank == (RANK_3 if rev else RANK_2)


def choose_follow(
    ctx: Context,
    units: list[Move],
    legal: Sequence[Move],
    rng: random.Random | None = None,
    noise: float = 0.0,
) -> Move:
    """Play on the field, or pass."""
    top = ctx.top
    assert top is not None
    rules = ctx.rules
    hand = ctx.hand
    revolution = ctx.revolution
    rev = ctx.rev
    plays = [m for m in legal if m.form != 0]
    if not plays:
        return PASS
    for m in plays:
        if m.cards == hand and not forbidden_finish(m, rules, revolution, top):
            return m
    n_units = len(units)
    if rules.spade3_return and top.rank == JOKER_RANK and top.form == SINGLE:
        for m in plays:
            if m.cards == SPADE_3:
                if hand != SPADE_3 or not forbidden_finish(m, rules, revolution, top):
                    return m
    unit_cards = {u.cards for u in units}
    pressing = ctx.opp_min <= 2 or ctx.owner_count <= 2
    endgame = n_units <= 3

    best: Move | None = None
    best_score = 1e9
    reserve_penalty = 0.0 if (pressing or endgame) else 6.0
    top_rank = RANK_3 if rev else RANK_2
    for m in plays:
        cards = m.cards
        if cards == hand:
            continue  # an illegal finish: never by choice
        if m.form == SEQUENCE:
            score = float(12 - m.high if rev else m.low)
        else:
            rank = m.rank
            score = float(12 - rank if rev and rank != JOKER_RANK else rank)
            if rank == JOKER_RANK or rank == top_rank:
                score += reserve_penalty
        cut = cuts(m, rules)
        if cards not in unit_cards:
            if m.jokers and cards >> JOKER_SHIFT != m.size:
                score += 7.0  # a joker spent as a filler
            else:
                score += 5.0  # a pair, triple or sequence broken
        if cut:
            score -= 3.0
        if score < best_score:
            best_score = score
            best = m
    if best is None:
        return PASS

    conforming = best.cards in unit_cards
    if noise and rng is not None and not pressing and rng.random() < noise:
        return PASS
    if pressing or (endgame and (conforming or best.rank == JOKER_RANK)):
        return best
    if not conforming:
        return PASS
    if _is_reserve(best, rev):
        # A joker or a 2 is spent only when few combinations are left.
        return best if n_units <= 4 else PASS
    if cuts(best, rules) and n_units >= 2:
        return best
    # An ace-level card early on a cheap field: keep it.
    if best.form != SEQUENCE and strength(best.rank, rev) >= 11 and n_units >= 6:
        return PASS if strength(top.rank, rev) < 7 else best
    return best


def heuristic_move(
    ctx: Context,
    legal: Sequence[Move] | None,
    rng: random.Random | None = None,
    noise: float = 0.0,
) -> Move:
    """The intermediate choice. ``legal`` may be ``None`` when leading (the
    lead is built from the plan; every combination is a legal lead)."""
    units = plan(ctx.hand, ctx.rules, ctx.revolution)
    if ctx.top is None:
        return choose_lead(ctx, units)
    assert legal is not None
    return choose_follow(ctx, units, legal, rng, noise)


# -- the fast rollout policy ----------------------------------------------------------------

#: Chance, in rollouts, of passing where the heuristic would play (not when pressing).
ROLLOUT_NOISE = 0.1


def rollout_move(r: Round, rng: random.Random, noise: float = ROLLOUT_NOISE) -> Move:
    """The intermediate heuristic for the player to act in a round of a
    *sampled* world (the advanced player's rollouts): the opponents' cards
    it counts are those of the sampled hands."""
    legal = round_legal(r)
    if legal is not None and len(legal) == 1:
        return legal[0]
    return heuristic_move(round_context(r), legal, rng, noise)


def _sure_lead(ctx: Context, units: list[Move]) -> Move | None:
    """A combination to lead from ``units`` (the hand's plan) that starts a sure way out:
    every combination but at most one is beyond the others' reach, so the seat leads
    those one by one (each clears the field back to it) and the last one finishes."""
    if len(units) == 1:
        return units[0]
    rules = ctx.rules
    pick: Move | None = None
    unsure = 0
    for u in units:
        if (ctx.safe(u) or cuts(u, rules)) and not toggles_revolution(u, rules):
            if pick is None:
                pick = u
        else:
            unsure += 1
            if unsure > 1:
                return None
    return pick


def sure_move(r: Round) -> Move | None:
    """A move that takes the player to act out before anyone else can play a card,
    whatever the others hold, or ``None`` (the advanced player's rollouts play it
    when there is one, as a strong player would: with every card unseen to the seat in
    a sampled world being the others' hands, this is what the seat itself can count).

    On an empty field, a lead from :func:`_sure_lead`. On the seat's own field (under
    ``return_to_last``), a pass that clears it for such a lead. On another's field, the
    hand itself or a play nobody can beat (or an 8-cut) after which the rest of the
    hand leads out surely. A revolution changes what is safe, so it is only ever the
    last play. Rules this reasoning does not cover (forbidden finishes, 11-back)
    give ``None``.

    >>> from rules_engine import RuleSet, Round
    >>> r = Round.start(RuleSet.preset("uecda"), ["S3 JK S2", "C5 H7", "H6 D9", "S7 C4", "C9"])
    >>> str(sure_move(r)), str(r.legal_moves()[0])  # the 2 and the joker: out of reach
    ('S2', 'S3')
    """
    return sure_choice(r, round_context(r), round_legal(r))


def sure_choice(r: Round, ctx: Context, legal: list[Move] | None) -> Move | None:
    """:func:`sure_move` given the player's :func:`round_context` and :func:`round_legal`
    (a rollout works them out once for this and for the move it plays otherwise)."""
    rules = r.rules
    if rules.ff_mask or rules.jback != "off":
        return None
    seat = r.to_act
    hand = r.hands[seat]
    if legal is None:
        return _sure_lead(ctx, plan(hand, rules, r.revolution))
    if r.last == seat:
        if PASS in legal and _sure_lead(ctx, plan(hand, rules, r.revolution)) is not None:
            return PASS
        return None
    for m in legal:
        if m.form == PASS_FORM:
            continue
        cards = m.cards
        if cards == hand:
            return m
        if toggles_revolution(m, rules) or not (ctx.safe(m) or cuts(m, rules)):
            continue
        rest = plan(hand & ~cards, rules, r.revolution)
        if _sure_lead(ctx, rest) is not None:
            return m
    return None


def round_legal(r: Round) -> list[Move] | None:
    """The moves a rollout player weighs: ``None`` when leading (every planned
    combination is a legal lead), else the legal moves (long sequences' follows
    found from the plan)."""
    top = r.top
    if top is None:
        return None
    legal: list[Move] | None = None
    if top.form == SEQUENCE:
        legal = _sequence_follows(r, r.hands[r.to_act], top)
    if legal is None:
        legal = r.legal_moves()
    return legal


def round_context(r: Round) -> Context:
    """The decision context of the player to act in a full round. In a sampled world
    the cards of the others' hands are exactly the cards that seat cannot see."""
    top = r.top
    seat = r.to_act
    hands = r.hands
    hand = hands[seat]
    others = 0
    opp_min = 99
    for s, h in enumerate(hands):
        if s != seat and h:
            others += h
            c = count(h)
            if c < opp_min:
                opp_min = c
    owner = r.last
    owner_count = count(hands[owner]) if top is not None and owner != seat else 99
    return Context(
        r.rules,
        hand,
        top,
        r.revolution,
        r.revolution ^ r.jback,
        others & REAL_MASK,
        others >> JOKER_SHIFT,
        opp_min,
        owner_count if owner_count else 99,
        r.lock,
    )


def _sequence_follows(r: Round, hand: int, top: Move) -> list[Move] | None:
    """Pass and the planned sequences that beat a sequence on the field,
    without the engine's full move generation (rollouts meet sequences
    often, and each new hand would grow the engine's move cache). ``None``
    when a short hand may need more than whole planned sequences."""
    if count(hand) <= 6:
        return None  # near the end every play matters: ask the engine
    rules = r.rules
    size = top.size
    rev = r.revolution ^ r.jback
    above_top = rules.sequence_beats == "above_top"
    lock = r.lock
    moves = [PASS]
    for u in plan(hand, rules, r.revolution):
        if u.form != SEQUENCE or u.size != size or u.jokers:
            continue
        if lock and u.suits & ~lock:
            continue
        if rev:
            if u.high < (top.low if above_top else top.high):
                moves.append(u)
        elif u.low > (top.high if above_top else top.low):
            moves.append(u)
    return moves


# -- exchange -----------------------------------------------------------------------------------


def return_cards(hand: int, owe: int, rules: RuleSet) -> int:
    """The ``owe`` cards worth least to this hand (the first of :func:`return_order`).

    >>> from rules_engine.cards import parse_cards, format_cards
    >>> rules = RuleSet.preset("standard")
    >>> format_cards(return_cards(parse_cards("S4 H4 D6 C9 S2 JK"), 2, rules))
    'D6 C9'
    """
    if owe <= 0:
        return 0
    chosen = 0
    for card in return_order(hand, rules)[:owe]:
        chosen += card
    return chosen


def return_order(hand: int, rules: RuleSet) -> list[int]:
    """The hand's cards (one bit each, a joker as the joker unit) from the one worth
    least to keep to the one worth most: lone weak cards first, never a joker or a 2
    while anything else is left, 8s and the spade 3 kept when they have a use.

    >>> from rules_engine.cards import parse_cards, format_cards
    >>> order = return_order(parse_cards("S4 H4 D6 S2 JK"), RuleSet.preset("standard"))
    >>> [format_cards(c) for c in order]
    ['D6', 'S4', 'H4', 'S2', 'JK']
    """
    units = plan(hand, rules, False)
    in_sequence = 0
    for u in units:
        if u.form == SEQUENCE:
            in_sequence |= u.cards
    scored: list[tuple[float, int]] = []
    real = hand & REAL_MASK
    bits = real
    while bits:
        low = bits & -bits
        bits ^= low
        index = low.bit_length() - 1
        rank = index >> 2
        score = float(rank)
        c = ((real >> (4 * rank)) & 0xF).bit_count()
        if c >= 2:
            score += 6.0 + 2.0 * (c - 2)
        if low & in_sequence:
            score += 6.0
        if rank == RANK_2:
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


#: Times a heuristic built a move that was not in the legal list (a bug if ever > 0).
FALLBACKS = [0]


def observation_choice(
    obs: Observation, decide: Callable[[Context, Sequence[Move] | None], Move]
) -> Move:
    """A seat's move from its observation by a chooser over the decision context (the
    heuristic, or the learned policy): a forced move is played at once, and a lead the
    chooser built is returned as the legal move it is."""
    legal = obs.legal
    if not legal:
        raise ValueError("not this seat's turn to play")
    if len(legal) == 1:
        return legal[0]
    ctx = context_from_observation(obs)
    return legal_version(decide(ctx, legal if ctx.top is not None else None), legal)


def legal_version(move: Move, legal: Sequence[Move]) -> Move:
    """``move`` as listed in ``legal``; if it is not there (never expected),
    the weakest legal play instead, counted in :data:`FALLBACKS`."""
    for m in legal:
        if m == move:
            return m
    FALLBACKS[0] += 1
    plays = [m for m in legal if m.form != 0]
    return plays[0] if plays else legal[0]
