"""What one seat may see (RULES.md section 7), as a value.

An :class:`Observation` holds the seat's own hand, every public play and
pass of the round, each player's card count, the field and its locks, who is
out, the titles, the cards this seat gave and got in the exchange, and the
effects of the last action (public facts; a gift's cards only for its two seats).
With the house rules of RULES.md section 8 it also holds the direction of play, the
choice owed (who, what, how many: public), every card discarded face up and every rank
named (public), and the 7渡し gifts, their cards only for the giver and the receiver.
It holds no other hand and not the face-down cards: the computer players and the web
layer get nothing else, so nothing else can leak.

>>> from rules_engine import RuleSet, Round
>>> r = Round.start(RuleSet.preset("basic"), ["S3 H3", "HK C7", "D6 JK"], leader=0)
>>> obs = observe(r, 1)
>>> obs.hand_text, obs.counts, obs.to_act
('C7 HK', (2, 2, 2), 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from .cards import REAL_MASK, count, format_cards, full_deck
from .effects import Effect, effect_json, visible_to
from .moves import Move
from .rules import RuleSet
from .state import (
    _W_SEEN,
    CHOICE_KINDS,
    GIVE_CHOICE,
    PHASE_NAMES,
    PLAY,
    Round,
    rank_text,
    titles_for,
)


# A Python class even when the module is compiled: mypyc's native classes cannot be
# frozen dataclasses (rules_engine/_native.py).
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    rules: RuleSet
    players: int
    phase: str
    to_act: int | None
    hand: int
    counts: tuple[int, ...]
    field: Move | None
    field_seat: int | None
    passed: tuple[int, ...]
    revolution: bool
    jback: bool
    lock: int
    number_lock: bool
    streak: int
    out: tuple[int, ...]
    penalised: tuple[int, ...]
    history: tuple[tuple[int, Move], ...]
    previous: tuple[int, ...] | None
    gave: int
    got: int
    owe: int
    partner: int | None
    result: tuple[int, ...] | None
    legal: tuple[Move, ...]
    first_leader: int
    #: Match points so far per seat (public), when the round is part of a match.
    scores: tuple[int, ...] | None = None
    #: What the last action did (public facts; exchange cards only for the two seats
    #: concerned), so that nobody has to compare two states to find out.
    effects: tuple[Effect, ...] = ()
    #: Rounds of the match still to come after this one (public; ``None``: not known,
    #: e.g. a lone round). The advanced player weighs the class a place brings into them.
    rounds_left: int | None = None
    #: 1: turns go up the seat order; -1: down it (9リバース).
    direction: int = 1
    #: The choice owed (public): (seat, kind index of CHOICE_KINDS, how many, receiver).
    owed_choice: tuple[int, int, int, int] | None = None
    #: The play whose choices are still owed, as ``Round.pending`` (public: the play is).
    pending: tuple[int, int, int, int, int, int] | None = None
    #: Every card discarded face up this round (public).
    discarded: int = 0
    #: The round's choices as ``Round.choices``: a gift's cards are 0 unless this seat
    #: gave or got it (its size stays: how many cards moved is public).
    choices: tuple[tuple[int, int, int, int, int, int], ...] = ()

    @property
    def hand_text(self) -> str:
        return format_cards(self.hand)

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def previous_titles(self) -> tuple[str, ...] | None:
        """Titles from the previous round (public), if there was one."""
        if self.previous is None:
            return None
        return titles_for(self.previous)

    @property
    def titles(self) -> tuple[str, ...] | None:
        """This round's titles once it is over."""
        return titles_for(self.result) if self.result is not None else None

    def played(self) -> int:
        """Every card played so far this round (public)."""
        cards = 0
        for _, move in self.history:
            cards += move.cards
        return cards

    def unseen(self) -> int:
        """Cards this seat cannot see: the other hands, the face-down cards and
        any hand discarded by miyako-ochi, together."""
        deck = full_deck(self.rules.jokers)
        seen = self.hand + self.played() + self.discarded
        real = deck & REAL_MASK & ~(seen & REAL_MASK)
        jokers = self.rules.jokers - (seen >> 52)
        return real | (jokers << 52)

    def known_cards(self) -> dict[int, int]:
        """Cards this seat knows to be in another hand: what it gave in the
        exchange, or passed on with a 7渡し, and has not seen played or discarded since.
        A seat that has passed cards on since may hold them no more: nothing is known
        of it then."""
        known: dict[int, int] = {}
        gave_on = set()
        for kind, seat, to, cards, _, _ in reversed(self.choices):
            if kind != GIVE_CHOICE:
                continue
            if seat == self.seat and to not in gave_on:
                still = cards & REAL_MASK & ~self.played() & ~self.discarded & ~self.hand
                if still:
                    known[to] = known.get(to, 0) | still
            gave_on.add(seat)
        if not self.gave or self.partner is None or self.partner in gave_on:
            return known
        still = self.gave & ~self.played() & ~self.discarded & REAL_MASK
        jokers = max(0, (self.gave >> 52) - (self.played() >> 52))
        # A joker given and then a joker played by anyone: we cannot tell which,
        # so only count jokers the partner must still hold if none was played.
        if jokers and (self.played() >> 52) > 0:
            jokers = 0
        cards = still | (jokers << 52)
        if cards:
            known[self.partner] = known.get(self.partner, 0) | cards
        # Never more cards than the seat holds (a gift can come back, or be discarded).
        return {s: c for s, c in known.items() if count(c) <= self.counts[s]}

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rules": self.rules.to_json(),
            "players": self.players,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": self.hand_text,
            "counts": list(self.counts),
            "field": str(self.field) if self.field is not None else None,
            "field_seat": self.field_seat,
            "passed": list(self.passed),
            "revolution": self.revolution,
            "jback": self.jback,
            "lock": self.lock,
            "number_lock": self.number_lock,
            "out": list(self.out),
            "penalised": list(self.penalised),
            "history": [[seat, str(move)] for seat, move in self.history],
            "previous": list(self.previous) if self.previous is not None else None,
            "gave": format_cards(self.gave),
            "got": format_cards(self.got),
            "owe": self.owe,
            "result": list(self.result) if self.result is not None else None,
            "legal": [str(m) for m in self.legal],
            "scores": list(self.scores) if self.scores is not None else None,
            "effects": [effect_json(e) for e in self.effects],
            "rounds_left": self.rounds_left,
            "direction": self.direction,
            "owed": (
                {
                    "by": self.owed_choice[0],
                    "kind": CHOICE_KINDS[self.owed_choice[1]],
                    "count": self.owed_choice[2],
                    "to": self.owed_choice[3] if self.owed_choice[3] >= 0 else None,
                }
                if self.owed_choice is not None
                else None
            ),
            "discarded": format_cards(self.discarded),
            "choices": [
                {
                    "kind": CHOICE_KINDS[kind],
                    "seat": seat,
                    "to": to if to >= 0 else None,
                    "cards": format_cards(cards),
                    "ranks": rank_text(ranks),
                    "size": size,
                }
                for kind, seat, to, cards, ranks, size in self.choices
            ],
        }


def observe(
    r: Round,
    seat: int,
    scores: tuple[int, ...] | None = None,
    rounds_left: int | None = None,
) -> Observation:
    """The observation of ``seat`` in round ``r`` (``scores`` and ``rounds_left``: the
    match's, if any)."""
    gave = got = 0
    for giver, receiver, cards, _auto in r.exchange:
        if giver == seat:
            gave += cards
        if receiver == seat:
            got += cards
    partner = r.partner[seat]
    choices = tuple(
        (kind, giver, to, cards if kind != GIVE_CHOICE or seat in (giver, to) else 0, ranks, k)
        for kind, giver, to, cards, ranks, k in r.choices
    )
    return Observation(
        seat=seat,
        rules=r.rules,
        players=r.n,
        phase=PHASE_NAMES[r.phase],
        to_act=r.to_act if r.to_act >= 0 else None,
        hand=r.hands[seat],
        counts=r.counts(),
        field=r.top,
        field_seat=r.last if r.last >= 0 else None,
        passed=tuple(s for s in range(r.n) if (r.passed >> s) & 1),
        revolution=r.revolution,
        jback=r.jback,
        lock=r.lock,
        number_lock=r.nlock,
        streak=r.streak,
        out=r.out,
        penalised=r.penalised,
        history=tuple(r.actions()),
        previous=r.previous,
        gave=gave,
        got=got,
        owe=r.owed[seat],
        partner=partner if partner >= 0 else None,
        result=r.result,
        legal=tuple(r.legal_moves()) if r.phase == PLAY and r.to_act == seat else (),
        first_leader=r.first_leader,
        scores=scores,
        effects=visible_to(r.effects, seat),
        rounds_left=rounds_left,
        direction=r.direction,
        owed_choice=r.owed_choice() if r.phase == PLAY else None,
        pending=r.pending,
        discarded=r.discarded,
        choices=choices,
    )


def round_from_observation(obs: Observation, hands: list[int]) -> Round:
    """A full round consistent with ``obs``, given a guess of every hand.

    The computer players use it to search sampled worlds: ``hands[obs.seat]``
    must be the seat's own hand, the others of the observed counts.
    """
    if hands[obs.seat] != obs.hand:
        raise ValueError("the observing seat's hand must be its own")
    r = Round()
    r.rules = obs.rules
    r.n = obs.players
    r.hands = tuple(hands)
    r.phase = PHASE_NAMES.index(obs.phase)
    r.to_act = obs.to_act if obs.to_act is not None else -1
    r.top = obs.field
    r.last = obs.field_seat if obs.field_seat is not None else -1
    r.passed = sum(1 << s for s in obs.passed)
    r.revolution = obs.revolution
    r.jback = obs.jback
    r.lock = obs.lock
    r.streak = obs.streak
    r.nlock = obs.number_lock
    r.out = obs.out
    r.penalised = obs.penalised
    r.active = sum(1 << s for s in range(obs.players) if hands[s])
    r.previous = obs.previous
    r.clean_out = any(s not in obs.penalised for s in obs.out)
    r.owed = tuple(obs.owe if s == obs.seat else 0 for s in range(obs.players))
    partner = [-1] * obs.players
    if obs.partner is not None:
        partner[obs.seat] = obs.partner
        partner[obs.partner] = obs.seat
    r.partner = tuple(partner)
    r.exchange = ()
    r.first_leader = obs.first_leader
    r.direction = obs.direction
    r.pending = obs.pending
    r.discarded = obs.discarded
    r.choices = obs.choices
    node: Any = None
    for seat, move in obs.history:
        node = (node, seat, move)
    r.history = node
    r.facedown = 0
    r.result = obs.result
    r.why = (_W_SEEN, obs.effects)
    return r
