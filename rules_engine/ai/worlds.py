"""Sampled worlds: guesses of every hidden hand, consistent with one seat's
observation and weighted by how well they explain the others' plays.

A world gives each other seat exactly its observed number of cards, drawn
from the cards the seat cannot see (``obs.unseen()``): cards it gave in the
exchange and has not seen played stay with the seat it gave them to
(``obs.known_cards()``), and a seat that had to hand over its strongest cards
to this one cannot hold anything stronger than what it gave. Cards nobody is
dealt are the face-down or discarded ones.

Each sample is then weighted by a simple model of play: a seat that passed
while holding a cheap card that beat the field, or that followed with a
stronger card than it needed, or led a card while holding weaker ones, is a
little less likely to hold those cards. Given a learned policy
(``model``, :mod:`~rules_engine.ai.policy`), the plays are read by it instead: a
guess weighs the chance the policy gives each of the others' latest plays with
the hand the guess gave them. Worlds are drawn in proportion to their weight
(importance resampling).

>>> import random
>>> from rules_engine import RuleSet, Round, observe
>>> r = Round.deal(RuleSet.preset("standard"), 4, seed=3)
>>> obs = observe(r, 0)
>>> hands = WorldSampler(obs, random.Random(1)).sample_hands()
>>> hands[0] == obs.hand, tuple(count(h) for h in hands) == obs.counts
(True, True)
"""

from __future__ import annotations

import dataclasses
import random

from ..cards import JOKER_RANK, JOKER_SHIFT, JOKER_UNIT, NUM_RANKS, RANK_8, REAL_MASK, count
from ..moves import Move
from ..observation import Observation, round_from_observation
from ..state import Refusal, Round
from .base import strength
from .policy import Weights, move_probability

#: Factors of the play model (likelihood of an action given a hand).
PASS_WITH_CHEAP_BEAT = 0.4
PASS_WITH_BROKEN_BEAT = 0.85
FOLLOW_OVER_CHEAPER = 0.65
LEAD_OVER_WEAKER = 0.8
MIN_WEIGHT = 1e-4
#: A guess in which a seat that gave its strongest cards in the exchange still holds a
#: card stronger than all but fewer of its receiver's cards than it gave.
EXCHANGE_MISMATCH = 0.1
#: Leads are only read from hands at least this big.
LEAD_MODEL_MIN_CARDS = 7
#: Reading plays by a learned policy instead (``WorldSampler(model=...)``): the most
#: recent decisions of the others read, each a factor of the chance the policy gives the
#: play made with the guessed hand, raised to a power below 1 (the policy is a model of
#: the others, not the others: a full product would trust it too far), and a floor
#: for a play it does not list.
POLICY_EVENTS = 12
POLICY_POWER = 0.5
POLICY_FLOOR = 0.05


#: What an event tells of the hand that made it (see the play model below).
_NOTHING, _PASS, _LEAD, _FOLLOW = 0, 1, 2, 3


class _Event:
    """One public action by another seat, with the field as it stood, and what of
    the play model applies to it, worked out once: the kind of reading and the card
    ranks (as shifts into a card set) it looks at."""

    __slots__ = (
        "index",
        "seat",
        "move",
        "top",
        "rev",
        "lock",
        "nlock",
        "kind",
        "shifts",
        "round",
    )

    def __init__(
        self,
        index: int,
        seat: int,
        move: Move,
        top: Move | None,
        rev: bool,
        lock: int,
        nlock: bool,
        before: Round | None = None,
    ) -> None:
        self.index = index
        #: The round just before the action (in the trace's world), when plays are read
        #: by a policy.
        self.round = before
        self.seat = seat
        self.move = move
        self.top = top
        self.rev = rev
        self.lock = lock
        self.nlock = nlock
        kind = _NOTHING
        shifts: tuple[int, ...] = ()
        if move.form == 0:
            if top is not None and top.form != 3 and not nlock and top.rank != JOKER_RANK:
                # Cheaper whole ranks it could have followed with (aces and 2s are kept
                # on purpose).
                ts = strength(top.rank, rev)
                kind = _PASS
                shifts = tuple(4 * r for r in range(NUM_RANKS) if ts < strength(r, rev) < 11)
        elif move.form != 3 and move.rank != JOKER_RANK:
            ms = strength(move.rank, rev)
            if top is None:
                kind = _LEAD
                shifts = tuple(4 * r for r in range(NUM_RANKS) if strength(r, rev) < ms and r != 5)
            elif top.form != 3 and not nlock and top.rank != JOKER_RANK and move.rank != RANK_8:
                # (an 8 may be played over cheaper cards for its cut)
                ts = strength(top.rank, rev)
                kind = _FOLLOW
                shifts = tuple(4 * r for r in range(NUM_RANKS) if ts < strength(r, rev) < ms)
        self.kind = kind
        self.shifts = shifts


def _exchange_stronger(weakest: int) -> int:
    """Ordinary cards the exchange takes before the card at index ``weakest``
    (higher rank, or the same rank and an earlier suit S H D C)."""
    rank, suit = weakest >> 2, weakest & 3
    above = REAL_MASK & ~((1 << (4 * (rank + 1))) - 1)
    same = sum(1 << (4 * rank + s) for s in range(suit))
    return above | same


class WorldSampler:
    """Draws guesses of the other hands for one observation."""

    def __init__(
        self,
        obs: Observation,
        rng: random.Random,
        weighting: bool = True,
        model: Weights | None = None,
    ) -> None:
        self.obs = obs
        #: Plays are read by this policy (with ``weighting``), not the simple model.
        self.model = model if weighting else None
        self.rng = rng
        self.hero = obs.seat
        n = obs.players
        self.n = n
        known = obs.known_cards()
        unseen = obs.unseen()
        for k in known.values():
            unseen -= k  # with their holder, or discarded with it
        # A seat with no cards (out, or dropped by miyako-ochi) holds nothing.
        self.known = [known.get(s, 0) if obs.counts[s] else 0 for s in range(n)]
        self.pool: list[int] = [1 << i for i in range(52) if unseen >> i & 1]
        self.pool.extend([JOKER_UNIT] * (unseen >> JOKER_SHIFT))
        self.need = [
            0 if s == self.hero else max(0, obs.counts[s] - count(self.known[s])) for s in range(n)
        ]
        # The seat that handed this one its strongest cards holds nothing
        # stronger, apart from what it got back.
        self.capped: int | None = None
        self.cap_forbidden = 0
        partner = obs.partner
        if (
            partner is not None
            and obs.got
            and obs.previous is not None
            and obs.previous.index(self.hero) < obs.previous.index(partner)
        ):
            got_real = obs.got & REAL_MASK
            if got_real:
                # The last card the exchange took: lowest rank, latest suit.
                rank = ((got_real & -got_real).bit_length() - 1) >> 2
                weakest = 4 * rank + ((got_real >> (4 * rank)) & 0xF).bit_length() - 1
                forbidden = _exchange_stronger(weakest)
                if obs.rules.jokers:
                    forbidden |= JOKER_UNIT  # marker: no jokers either
                self.capped = partner
                self.cap_forbidden = forbidden
        # The gifts between other seats (and ours, where what we got is not known): the
        # giver handed over its strongest cards, so what it holds now (bar the cards
        # returned to it) is weaker than that many of its receiver's cards.
        self.played = [0] * n
        for seat, move in obs.history:
            self.played[seat] += move.cards
        self.gifts: list[tuple[int, int, int]] = []
        if weighting:
            self.gifts = self._gifts()
        self.events: list[_Event] = []
        self.trace_ok = False
        # The trace replays plays and passes alone; with house rules (gifts, discards,
        # skips, a reversed direction) it could not follow the round, so it is left out.
        if weighting and obs.history and not obs.rules.has_house_rules:
            self._trace()

    # -- drawing -------------------------------------------------------------------

    def sample_hands(self) -> list[int]:
        """One guess of every hand (the seat's own included)."""
        rng = self.rng
        pool = self.pool[:]
        rng.shuffle(pool)
        hands = list(self.known)
        hands[self.hero] = self.obs.hand
        order = list(range(self.n))
        capped = self.capped
        if capped is not None and self.need[capped]:
            forbidden = self.cap_forbidden
            allowed = sum(
                1
                for c in pool
                if not (c & forbidden & REAL_MASK)
                and not (c >> JOKER_SHIFT and forbidden >> JOKER_SHIFT)
            )
            k = self.need[capped]
            if allowed >= k:
                rest: list[int] = []
                for c in pool:
                    if (
                        k
                        and not (c & forbidden & REAL_MASK)
                        and not (c >> JOKER_SHIFT and forbidden >> JOKER_SHIFT)
                    ):
                        hands[capped] += c
                        k -= 1
                    else:
                        rest.append(c)
                pool = rest
                order.remove(capped)
            # else: an inconsistent cap (not expected): draw without it.
        i = 0
        for s in order:
            k = self.need[s]
            if s == self.hero or not k:
                continue
            for c in pool[i : i + k]:
                hands[s] += c
            i += k
        return hands

    def _gifts(self) -> list[tuple[int, int, int]]:
        """(receiver, giver, cards) of the exchange's gifts this guess must explain."""
        obs = self.obs
        prev = obs.previous
        n = self.n
        if prev is None or n < 3 or obs.rules.miyako_ochi and prev[0] in obs.penalised:
            return []
        pairs = [(prev[0], prev[-1], 2 if n >= 4 else 1)]
        if n >= 4:
            pairs.append((prev[1], prev[-2], 1))
        hero = self.hero
        gifts = []
        for receiver, giver, k in pairs:
            if giver == hero:
                continue  # the seat knows what it gave: those cards are placed already
            if receiver == hero and self.capped == giver:
                continue  # what it got is known: the giver is capped already
            gifts.append((receiver, giver, k))
        return gifts

    def _gift_factor(self, hands: list[int]) -> float:
        w = 1.0
        played = self.played
        for receiver, giver, k in self.gifts:
            held = hands[giver] + played[giver]
            if not held:
                continue
            if held >> JOKER_SHIFT:
                w *= EXCHANGE_MISMATCH  # a joker is always among the strongest cards
                continue
            real = held & REAL_MASK
            rank = (real.bit_length() - 1) >> 2
            nib = (real >> (4 * rank)) & 0xF
            top = 4 * rank + ((nib & -nib).bit_length() - 1)  # S before H D C
            got = hands[receiver] + played[receiver]
            stronger = (got & _exchange_stronger(top)).bit_count() + (got >> JOKER_SHIFT)
            if stronger < k:
                w *= EXCHANGE_MISMATCH
        return w

    def weight(self, hands: list[int]) -> float:
        """How well a guess explains the exchange and the others' plays and passes
        (1 = fully)."""
        w = self._gift_factor(hands) if self.gifts else 1.0
        if not self.trace_ok:
            return w
        if self.model is not None:
            return max(MIN_WEIGHT, w * self._policy_factor(hands, self.model))
        acc = [0] * self.n
        hero = self.hero
        for ev in reversed(self.events):
            seat = ev.seat
            move = ev.move
            acc[seat] += move.cards
            kind = ev.kind
            if seat == hero or kind == _NOTHING:
                continue
            held = (hands[seat] + acc[seat]) & REAL_MASK
            if kind == _PASS:
                top = ev.top
                assert top is not None
                w *= _pass_factor(held, ev.shifts, top.size, ev.lock)
            elif kind == _LEAD:
                w *= _lead_factor(held, ev.shifts)
            else:
                w *= _follow_factor(held, ev.shifts, move.size, ev.lock)
            if w < MIN_WEIGHT:
                return MIN_WEIGHT
        return w

    def _policy_factor(self, hands: list[int], model: Weights) -> float:
        """How likely the policy finds the others' latest decisions with the hands they
        had in this guess (each a chance raised to :data:`POLICY_POWER`)."""
        n = self.n
        acc = [0] * n
        hero = self.hero
        f = 1.0
        read = 0
        for ev in reversed(self.events):
            seat = ev.seat
            acc[seat] += ev.move.cards
            before = ev.round
            if seat == hero or before is None:
                continue
            try:
                r = before.with_hands([hands[s] + acc[s] for s in range(n)])
            except ValueError:  # a card only the trace's world placed (miyako-ochi's)
                continue
            p = move_probability(r, ev.move, model)
            if p is None:
                continue
            f *= max(p, POLICY_FLOOR) ** POLICY_POWER
            read += 1
            if read >= POLICY_EVENTS:
                break
        return f

    def sample_worlds(self, k: int, oversample: int = 2) -> list[list[int]]:
        """``k`` guesses drawn in proportion to their weight from
        ``k * oversample`` raw samples (systematic resampling)."""
        raw = [self.sample_hands() for _ in range(k * oversample)]
        if not (self.trace_ok or self.gifts) or oversample <= 1:
            return raw[:k]
        weights = [self.weight(h) for h in raw]
        total = sum(weights)
        step = total / k
        pos = self.rng.random() * step
        out: list[list[int]] = []
        acc = 0.0
        j = 0
        for h, w in zip(raw, weights, strict=True):
            acc += w
            while j < k and pos < acc:
                out.append(h)
                j += 1
                pos += step
        while len(out) < k:  # rounding at the very end
            out.append(raw[-1])
        return out

    # -- the public trace ------------------------------------------------------------

    def _trace(self) -> None:
        """Replay the round's public actions once, in any one consistent
        world, to learn the field each action was made on."""
        obs = self.obs
        n = self.n
        played = self.played
        base = self.sample_hands()
        leftovers = self.obs.unseen()
        for s in range(n):
            if s != self.hero:
                leftovers -= base[s]
        spare = leftovers & REAL_MASK
        spare_card = spare & -spare if spare else (JOKER_UNIT if leftovers >> JOKER_SHIFT else 0)
        dropped_options: list[int | None] = [None]
        prev = obs.previous
        if obs.rules.miyako_ochi and prev is not None and n >= 3 and spare_card:
            d = prev[0]
            if d in obs.penalised and obs.counts[d] == 0:
                dropped_options.insert(0, d)
        for dropped in dropped_options:
            start = [base[s] + played[s] for s in range(n)]
            if dropped is not None:
                start[dropped] += spare_card
            events = self._replay(start)
            if events is not None:
                self.events = events
                self.trace_ok = True
                return

    def _replay(self, start: list[int]) -> list[_Event] | None:
        obs = self.obs
        history = obs.history
        first = history[0][0] if history else obs.first_leader
        start_obs = dataclasses.replace(
            obs,
            phase="play",
            to_act=first,
            hand=start[self.hero],
            counts=tuple(count(h) for h in start),
            field=None,
            field_seat=None,
            passed=(),
            revolution=False,
            jback=False,
            lock=0,
            number_lock=False,
            streak=0,
            out=(),
            penalised=(),
            history=(),
            owe=0,
            result=None,
            legal=(),
        )
        try:
            r: Round | Refusal = round_from_observation(start_obs, start)
        except ValueError:
            return None
        events: list[_Event] = []
        for i, (seat, move) in enumerate(history):
            assert isinstance(r, Round)
            if r.to_act != seat:
                return None
            events.append(
                _Event(
                    i,
                    seat,
                    move,
                    r.top,
                    r.reversed,
                    r.lock,
                    r.nlock,
                    r if self.model is not None and seat != self.hero else None,
                )
            )
            r = r.apply(move)
            if isinstance(r, Refusal):
                return None
        assert isinstance(r, Round)
        if (
            r.revolution != obs.revolution
            or r.top != obs.field
            or r.out != obs.out
            or r.counts() != obs.counts
        ):
            return None
        return events


# -- the play model ------------------------------------------------------------------------


def _pass_factor(held: int, shifts: tuple[int, ...], size: int, lock: int) -> float:
    """A pass while holding a whole cheaper rank that beat the field is unlikely; while
    holding only a broken one, a little less likely."""
    broken = False
    for sh in shifts:
        nb = (held >> sh) & 0xF
        if not nb:
            continue
        usable = nb & lock if lock else nb
        c = usable.bit_count()
        if c < size or (lock and c > size and size > 1 and usable != lock):
            continue
        if nb.bit_count() == size:
            return PASS_WITH_CHEAP_BEAT
        broken = True
    return PASS_WITH_BROKEN_BEAT if broken else 1.0


def _follow_factor(held: int, shifts: tuple[int, ...], size: int, lock: int) -> float:
    """Following with a stronger rank than a whole cheaper one it held is unlikely."""
    for sh in shifts:
        nb = (held >> sh) & 0xF
        if nb.bit_count() == size and (not lock or nb == lock):
            return FOLLOW_OVER_CHEAPER
    return 1.0


def _lead_factor(held: int, shifts: tuple[int, ...]) -> float:
    """Leading a card over two or more weaker ranks (the 8s aside) is less likely."""
    if held.bit_count() < LEAD_MODEL_MIN_CARDS:
        return 1.0  # short hands lead their strong cards on purpose
    weaker = 0
    for sh in shifts:
        if (held >> sh) & 0xF:
            weaker += 1
            if weaker >= 2:
                return LEAD_OVER_WEAKER
    return 1.0
