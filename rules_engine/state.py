"""A round of Daifugo: the state, the exact set of legal moves, and ``apply``.

``Round`` is immutable: :meth:`Round.apply` and :meth:`Round.give` return a new
round, or a :class:`Refusal` with one of the reason codes of SCENARIOS.md and
leave the old round untouched. Branching is therefore free, which the
computer players and the puzzle solver rely on.

>>> from rules_engine import RuleSet, Round
>>> r = Round.start(RuleSet.preset("basic"), ["S3 H3 S4 S5", "HK C7 D7", "D6", "H2 CA"], leader=0)
>>> sorted(str(m) for m in r.legal_moves())
['H3', 'S3', 'S3 H3', 'S3 S4 S5', 'S4', 'S5']
>>> r2 = r.apply("S3 H3")
>>> r2.to_act, str(r2.top)
(1, 'S3 H3')
>>> r2.apply("HK").reason
'wrong_form'
>>> [format_cards(h) for h in r.hands][0]   # r itself never changed
'S3 H3 S4 S5'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .cards import (
    DIAMOND_3,
    JOKER_RANK,
    JOKER_SHIFT,
    JOKER_UNIT,
    NUM_RANKS,
    RANK_3,
    RANK_8,
    RANK_J,
    RANK_MASKS,
    RANKS,
    REAL_MASK,
    SPADE_3,
    CardError,
    contains,
    count,
    deck_list,
    format_cards,
    parse_cards,
    suit_lanes,
)
from .effects import (
    CLEAR_REASONS,
    CLEARED,
    DISCARDED,
    EIGHT_CUT,
    EXCHANGE_OVER,
    GAVE,
    GIFT,
    JBACK,
    MIYAKO_OCHI,
    NAMED,
    NUMBER_LOCK,
    OWES,
    PASSED,
    PENALISED,
    PLAYED,
    REVERSED,
    REVOLUTION,
    ROUND_OVER,
    SANDSTORM,
    SKIPPED,
    SPADE3_RETURN,
    SUIT_LOCK,
    WENT_OUT,
    Effect,
    cuts,
    finish_entry,
    house_count,
    is_sandstorm,
    returns_spade3,
    toggles_jback,
    toggles_revolution,
)
from .moves import (
    FORMS,
    GROUP,
    JOKER_ONLY,
    PASS,
    PASS_FORM,
    SEQUENCE,
    SINGLE,
    Move,
    analyse,
    group_tables,
    sequences_for_suit,
)
from .rules import RuleSet

EXCHANGE, PLAY, OVER = 0, 1, 2
PHASE_NAMES = ("exchange", "play", "over")

#: Refusal reasons, in the order of precedence of SCENARIOS.md.
REASONS = (
    "round_over",
    "wrong_phase",
    "choice_owed",
    "no_choice_owed",
    "not_a_rank",
    "rank_repeated",
    "passed_until_clear",
    "not_your_turn",
    "not_in_hand",
    "bad_exchange",
    "not_a_combination",
    "leader_cannot_pass",
    "wrong_form",
    "wrong_count",
    "suit_locked",
    "number_locked",
    "not_stronger",
)

TITLES_BY_SIZE: dict[int, tuple[str, ...]] = {
    2: ("winner", "loser"),
    3: ("fugo", "heimin", "hinmin"),
    4: ("daifugo", "fugo", "hinmin", "daihinmin"),
    5: ("daifugo", "fugo", "heimin", "hinmin", "daihinmin"),
    6: ("daifugo", "fugo", "heimin", "heimin", "hinmin", "daihinmin"),
}

# What the last action did, recorded by apply/give/start as ``Round.why`` and read back
# as ``Round.effects``: the kind of action, then (for a play or a pass) the actor, the
# move, these flags, the forbidden_finish entry broken, the seat miyako-ochi dropped and
# the index of the clear reason in CLEAR_REASONS (-1: the field stays).
# A round rebuilt from an observation carries the observed effects as they are.
_W_START, _W_PLAY, _W_PASS, _W_GIVE, _W_SEEN, _W_CHOICE = range(6)
(_F_CUT, _F_S3, _F_REVO, _F_JB, _F_LOCK, _F_NLOCK, _F_OUT, _F_JB_WAS, _F_REV, _F_SAND) = (
    1 << i for i in range(10)
)
_CLEAR_CUT, _CLEAR_S3, _CLEAR_PASSED, _CLEAR_NOBODY, _CLEAR_SAND = range(5)

#: The choices a play may owe (RULES.md section 8), in the order they come due.
CHOICE_KINDS = ("give", "discard", "name")
GIVE_CHOICE, DISCARD_CHOICE, NAME_CHOICE = range(3)
_RANK_5, _RANK_7, _RANK_9, _RANK_T, _RANK_Q = 2, 4, 6, 7, 9
_MASK_8: Final = RANK_MASKS[RANK_8]
_MASK_J: Final = RANK_MASKS[RANK_J]


# A Python class even when the module is compiled: mypyc's native classes cannot be
# frozen dataclasses (rules_engine/_native.py).
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action was refused. The round it was tried on is unchanged.

    Falsy, so ``if not (new := r.apply(m)):`` reads naturally.
    """

    reason: str

    def __bool__(self) -> bool:
        return False


_R = {reason: Refusal(reason) for reason in REASONS}


def _strength(rank: int, rev: bool) -> int:
    if rank == JOKER_RANK or not rev:
        return rank
    return 12 - rank


#: Round's attributes (named apart from ``__slots__``, which compiled classes do not expose).
ROUND_FIELDS = (
    "rules",
    "n",
    "hands",
    "phase",
    "to_act",
    "top",
    "last",
    "passed",
    "revolution",
    "jback",
    "lock",
    "streak",
    "nlock",
    "out",
    "penalised",
    "active",
    "previous",
    "clean_out",
    "owed",
    "partner",
    "exchange",
    "first_leader",
    "direction",
    "pending",
    "discarded",
    "choices",
    "history",
    "facedown",
    "result",
    "why",
)


class Round:
    """One round: hands, the field, whose turn, who is out.

    Build one with :meth:`deal` (seeded) or :meth:`start` (given hands, as
    scenarios and lessons do). Fields are read-only by convention.
    """

    __slots__ = ROUND_FIELDS

    rules: RuleSet
    n: int
    hands: tuple[int, ...]
    phase: int
    to_act: int
    top: Move | None
    last: int
    passed: int
    revolution: bool
    jback: bool
    lock: int
    streak: int
    nlock: bool
    out: tuple[int, ...]
    penalised: tuple[int, ...]
    active: int
    previous: tuple[int, ...] | None
    clean_out: bool
    owed: tuple[int, ...]
    partner: tuple[int, ...]
    exchange: tuple[tuple[int, int, int, bool], ...]
    first_leader: int
    #: 1: turns go up the seat order; -1: down it (9リバース).
    direction: int
    #: The play whose choices are still owed: (player, give, discard, name, clear, skips),
    #: the counts of each choice still to come, the clear reason index (or -1) and the
    #: skips (5スキップ) that follow them; ``None`` when none is owed.
    pending: tuple[int, int, int, int, int, int] | None
    #: Every card discarded face up this round (10捨て, 12ボンバー).
    discarded: int
    #: The choices made this round: (kind, seat, to, cards, ranks, size), kind in
    #: CHOICE_KINDS order; ``to`` is the receiver of a gift (-1 otherwise), ``ranks`` a
    #: bomber's, ``size`` how many cards or ranks.
    choices: tuple[tuple[int, int, int, int, int, int], ...]
    history: Any
    facedown: int
    result: tuple[int, ...] | None
    why: tuple[Any, ...] | None

    # -- construction ----------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: RuleSet,
        hands: Sequence[int | str],
        *,
        leader: int | None = None,
        revolution: bool = False,
        previous: Sequence[int] | None = None,
        facedown: int = 0,
    ) -> Round:
        """A round from given hands (as dealt, before any exchange).

        ``previous`` is the last round's seats from first place to last: it
        turns on the exchange (3+ players) and miyako-ochi, and makes the last
        place lead. Otherwise ``leader`` leads, or the holder of the diamond 3,
        or (when nobody holds it) the holder of the weakest card, ties broken
        C D H S.
        """
        n = len(hands)
        if not 2 <= n <= 6:
            raise ValueError("a table has 2 to 6 players")
        parsed = tuple(_hand_value(h, rules.jokers) for h in hands)
        total_real = 0
        total_jokers = 0
        for h in parsed:
            if h & REAL_MASK & total_real:
                raise CardError("a card is in two hands")
            total_real |= h & REAL_MASK
            total_jokers += h >> JOKER_SHIFT
        if total_jokers > rules.jokers:
            raise CardError(f"more jokers than the deck's {rules.jokers}")
        if previous is not None:
            previous = tuple(previous)
            if sorted(previous) != list(range(n)):
                raise ValueError("previous must list every seat once")
        self = cls()
        self.rules = rules
        self.n = n
        self.phase = PLAY
        self.top = None
        self.last = -1
        self.passed = 0
        self.revolution = bool(revolution)
        self.jback = False
        self.lock = 0
        self.streak = 0
        self.nlock = False
        self.out = ()
        self.penalised = ()
        self.previous = previous
        self.clean_out = False
        self.owed = (0,) * n
        self.partner = (-1,) * n
        self.exchange = ()
        self.history = None
        self.facedown = facedown
        self.result = None
        self.why = (_W_START,)
        hands_list = list(parsed)
        if leader is None:
            leader = previous[-1] if previous is not None else _first_leader(hands_list)
        elif not 0 <= leader < n:
            raise ValueError("leader must be a seat")
        self.first_leader = leader
        self.direction = 1
        self.pending = None
        self.discarded = 0
        self.choices = ()
        if previous is not None and n >= 3:
            self._exchange_gifts(hands_list, previous)
        if rules.diamond3_leads and previous is not None:
            # The diamond 3 leads every round, wherever the gifts put it (and again
            # once the returns are made, see give).
            leader = _first_leader(hands_list)
            self.first_leader = leader
        self.hands = tuple(hands_list)
        self.active = sum(1 << s for s in range(n) if hands_list[s])
        if self.phase == PLAY:
            self.to_act = leader
        else:
            self.to_act = -1
        if self.active.bit_count() <= 1 and self.phase == PLAY:
            self._finish()
        elif self.phase == PLAY and not (self.active >> leader) & 1:
            self.to_act = self._next_active(leader)
        return self

    @classmethod
    def deal(
        cls,
        rules: RuleSet,
        players: int,
        seed: int | str,
        *,
        previous: Sequence[int] | None = None,
    ) -> Round:
        """Shuffle with ``seed`` and deal one card at a time from seat 0
        (or ``rules.hand_size`` each, the rest face down).

        >>> from rules_engine import RuleSet
        >>> a = Round.deal(RuleSet.preset("standard"), 4, seed=7)
        >>> a.hands == Round.deal(RuleSet.preset("standard"), 4, seed=7).hands
        True
        >>> [count(h) for h in a.hands]
        [14, 13, 13, 13]
        """
        if not 2 <= players <= 6:
            raise ValueError("a table has 2 to 6 players")
        deck = deck_list(rules.jokers)
        random.Random(_seed_text(seed)).shuffle(deck)
        hands = [0] * players
        if rules.hand_size is None:
            dealt = len(deck)
        else:
            dealt = min(len(deck), rules.hand_size * players)
        for i in range(dealt):
            hands[i % players] += deck[i]
        facedown = sum(deck[dealt:])
        return cls.start(rules, hands, previous=previous, facedown=facedown)

    def _exchange_gifts(self, hands: list[int], previous: tuple[int, ...]) -> None:
        n = self.n
        pairs = [(previous[-1], previous[0], 2), (previous[-2], previous[1], 1)]
        if n == 3:
            pairs = [(previous[-1], previous[0], 1)]
        owed = [0] * n
        partner = [-1] * n
        records = []
        for giver, receiver, k in pairs:
            gift = strongest_cards(hands[giver], k)
            hands[giver] -= gift
            hands[receiver] += gift
            owed[receiver] = count(gift)
            partner[receiver] = giver
            partner[giver] = receiver
            records.append((giver, receiver, gift, True))
        self.owed = tuple(owed)
        self.partner = tuple(partner)
        self.exchange = tuple(records)
        if any(owed):
            self.phase = EXCHANGE

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickled as its set attributes (a compiled Round has no slots for pickle to read;
        # rules_engine/native.py).
        return (
            _round_again,
            (tuple((n, getattr(self, n)) for n in ROUND_FIELDS if hasattr(self, n)),),
        )

    def _copy(self) -> Round:
        new = Round()
        new.rules = self.rules
        new.n = self.n
        new.hands = self.hands
        new.phase = self.phase
        new.to_act = self.to_act
        new.top = self.top
        new.last = self.last
        new.passed = self.passed
        new.revolution = self.revolution
        new.jback = self.jback
        new.lock = self.lock
        new.streak = self.streak
        new.nlock = self.nlock
        new.out = self.out
        new.penalised = self.penalised
        new.active = self.active
        new.previous = self.previous
        new.clean_out = self.clean_out
        new.owed = self.owed
        new.partner = self.partner
        new.exchange = self.exchange
        new.first_leader = self.first_leader
        new.direction = self.direction
        new.pending = self.pending
        new.discarded = self.discarded
        new.choices = self.choices
        new.history = self.history
        new.facedown = self.facedown
        new.result = self.result
        new.why = None
        return new

    def with_hands(self, hands: Sequence[int]) -> Round:
        """The same position with other hands of the same sizes: a guess of the hidden
        hands (the computer players read the others' past plays in each sampled world).
        Nothing is checked beyond the sizes.

        >>> r = Round.start(RuleSet.preset("basic"), ["S3 H9", "C4", "HK"], leader=0)
        >>> swapped = [r.hands[0], r.hands[2], r.hands[1]]
        >>> r.with_hands(swapped).hands == tuple(swapped)
        True
        """
        hands = tuple(hands)
        if len(hands) != self.n or any(
            count(h) != count(g) for h, g in zip(hands, self.hands, strict=True)
        ):
            raise ValueError("the hands must keep every seat's number of cards")
        new = self._copy()
        new.hands = hands
        return new

    def _key(self) -> tuple[Any, ...]:
        # ``why`` (the last action's effects) is left out: it follows from the history.
        return tuple(getattr(self, name) for name in _KEY_SLOTS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key()[1:-2])

    def __repr__(self) -> str:
        hands = ", ".join(repr(format_cards(h)) for h in self.hands)
        return (
            f"<Round {PHASE_NAMES[self.phase]} to_act={self.to_act} "
            f"top={str(self.top) if self.top else None!r} hands=[{hands}]>"
        )

    # -- reading the state -------------------------------------------------------

    @property
    def reversed(self) -> bool:
        """Current order: revolution XOR 11-back."""
        return self.revolution ^ self.jback

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def place_of(self, seat: int) -> int | None:
        """The finishing place (1 = first) of ``seat``, ``None`` while it still plays.

        Clean finishers take the places from the top in the order they go out;
        penalised players (an illegal finish, miyako-ochi) fill the places from the
        bottom in the order the penalties happen, so a later one is not last.

        >>> from rules_engine import RuleSet
        >>> r = Round.start(RuleSet.preset("standard"), ["S2", "H4 H5", "C6 C7", "D9 DT"], leader=0)
        >>> r.apply("S2").place_of(0)   # a 2 is a forbidden finish in the standard preset
        4
        """
        if self.result is not None:
            return self.result.index(seat) + 1
        penalised = self.penalised
        if seat in penalised:
            return self.n - penalised.index(seat)
        out = self.out
        if seat in out:
            place = 1
            for s in out:
                if s == seat:
                    return place
                if s not in penalised:
                    place += 1
        return None

    def places(self) -> tuple[int | None, ...]:
        """Each seat's finishing place (see :meth:`place_of`).

        >>> from rules_engine import RuleSet
        >>> r = Round.start(RuleSet.preset("standard"), ["S2", "H4 H5", "C6 C7", "D9 DT"], leader=0)
        >>> r.apply("S2").places()
        (4, None, None, None)
        """
        return tuple(self.place_of(s) for s in range(self.n))

    @property
    def effects(self) -> tuple[Effect, ...]:
        """What the action that made this round did, in reading order (see
        :mod:`rules_engine.effects`); a round rebuilt from an observation has the
        observed ones.

        >>> from rules_engine import RuleSet
        >>> r = Round.start(RuleSet.preset("basic"), ["S3 H5", "HK", "D6"], leader=0)
        >>> [(e.kind, e.seat) for e in r.apply("S3").apply("HK").effects]
        [('played', 1), ('went_out', 1)]
        """
        why = self.why
        if why is None:
            return ()
        code = why[0]
        if code == _W_SEEN:
            seen: tuple[Effect, ...] = why[1]
            return seen
        out: list[Effect] = []
        if code == _W_START:
            for giver, receiver, cards, _auto in self.exchange:
                out.append(
                    Effect(GIFT, giver, to=receiver, cards=cards, size=count(cards), on=True)
                )
            if self.phase == OVER:
                out.append(Effect(ROUND_OVER))
            return tuple(out)
        if code == _W_GIVE:
            _, seat, receiver, cards = why
            out.append(Effect(GIFT, seat, to=receiver, cards=cards, size=count(cards)))
            if self.phase == PLAY:
                out.append(Effect(EXCHANGE_OVER, self.to_act))
            elif self.phase == OVER:
                out.append(Effect(ROUND_OVER))
            return tuple(out)
        if code == _W_CHOICE:
            return self._choice_effects(why)
        _, actor, move, flags, entry, dropped, clear, skipped = why
        cleared = clear >= 0
        pending = self.pending
        if code == _W_PASS:
            out.append(Effect(PASSED, actor))
        else:
            out.append(Effect(PLAYED, actor, move))
            if flags & _F_CUT:
                out.append(Effect(EIGHT_CUT, actor))
            if flags & _F_S3:
                out.append(Effect(SPADE3_RETURN, actor))
            if flags & _F_SAND:
                out.append(Effect(SANDSTORM, actor))
            if flags & _F_REVO:
                out.append(Effect(REVOLUTION, on=self.revolution))
            if flags & _F_REV:
                out.append(Effect(REVERSED, actor, on=self.direction < 0))
            # Field effects are told only when they outlive the play: a lock started by
            # a play that also clears the field (or ends the round) never applies.
            if not cleared and self.phase == PLAY and (pending is None or pending[4] < 0):
                if flags & _F_JB:
                    out.append(Effect(JBACK, reason="played", on=self.jback))
                if flags & _F_LOCK:
                    out.append(Effect(SUIT_LOCK, suits=self.lock))
                if flags & _F_NLOCK:
                    out.append(Effect(NUMBER_LOCK))
            if flags & _F_OUT:
                places = self.places()
                if entry is not None:
                    out.append(Effect(PENALISED, actor, place=places[actor] or 0, reason=entry))
                else:
                    out.append(Effect(WENT_OUT, actor, place=places[actor] or 0))
                if dropped >= 0:
                    out.append(Effect(MIYAKO_OCHI, dropped, place=places[dropped] or 0))
            self._owes_effect(out)
        for seat in skipped:
            out.append(Effect(SKIPPED, seat))
        if cleared:
            out.append(Effect(CLEARED, self.to_act, reason=CLEAR_REASONS[clear]))
            if flags & _F_JB_WAS:
                out.append(Effect(JBACK, reason="cleared", on=False))
        if self.phase == OVER:
            out.append(Effect(ROUND_OVER))
        return tuple(out)

    def _owes_effect(self, out: list[Effect]) -> None:
        owed = self.owed_choice() if self.phase == PLAY else None
        if owed is not None:
            seat, kind, k, receiver = owed
            out.append(Effect(OWES, seat, to=receiver, size=k, reason=CHOICE_KINDS[kind]))

    def _choice_effects(self, why: tuple[Any, ...]) -> tuple[Effect, ...]:
        _, actor, kind, cards, receiver, ranks, taken, outs, clear, skipped, jb_was = why
        out: list[Effect] = []
        if kind == GIVE_CHOICE:
            out.append(Effect(GAVE, actor, to=receiver, cards=cards, size=count(cards)))
        elif kind == DISCARD_CHOICE:
            out.append(Effect(DISCARDED, actor, cards=cards, size=count(cards)))
        else:
            out.append(Effect(NAMED, actor, ranks=ranks, size=ranks.bit_count()))
            for seat, lost in taken:
                out.append(Effect(DISCARDED, seat, cards=lost, size=count(lost)))
        places = self.places()
        for seat, dropped in outs:
            out.append(Effect(WENT_OUT, seat, place=places[seat] or 0))
            if dropped >= 0:
                out.append(Effect(MIYAKO_OCHI, dropped, place=places[dropped] or 0))
        self._owes_effect(out)
        for seat in skipped:
            out.append(Effect(SKIPPED, seat))
        if clear >= 0:
            out.append(Effect(CLEARED, self.to_act, reason=CLEAR_REASONS[clear]))
            if jb_was:
                out.append(Effect(JBACK, reason="cleared", on=False))
        if self.phase == OVER:
            out.append(Effect(ROUND_OVER))
        return tuple(out)

    def counts(self) -> tuple[int, ...]:
        return tuple(count(h) for h in self.hands)

    def titles(self) -> tuple[str, ...] | None:
        """Title of each seat once the round is over."""
        if self.result is None:
            return None
        return titles_for(self.result)

    def actions(self) -> list[tuple[int, Move]]:
        """The public plays and passes of this round, in order."""
        events: list[tuple[int, Move]] = []
        node = self.history
        while node is not None:
            node, seat, move = node
            events.append((seat, move))
        events.reverse()
        return events

    def is_passed(self, seat: int) -> bool:
        return bool((self.passed >> seat) & 1)

    # -- turn helpers -----------------------------------------------------------------

    def _next_active(self, seat: int) -> int:
        # "Next" follows the direction of play in force (9リバース).
        n = self.n
        step = self.direction
        active = self.active
        for _ in range(n):
            seat += step
            if seat == n:
                seat = 0
            elif seat < 0:
                seat = n - 1
            if (active >> seat) & 1:
                return seat
        return -1

    def _next_to_act(self, seat: int) -> int:
        n = self.n
        step = self.direction
        eligible = self.active & ~self.passed if self.rules.pass_until_clear else self.active
        for _ in range(n):
            seat += step
            if seat == n:
                seat = 0
            elif seat < 0:
                seat = n - 1
            if (eligible >> seat) & 1:
                return seat
        return -1

    def _go_out(self, seat: int, hands: list[int]) -> int:
        """``seat`` (its hand empty) goes out without penalty, in the next free place;
        returns the seat miyako-ochi drops as a result, or -1."""
        self.active &= ~(1 << seat)
        self.out += (seat,)
        if self.clean_out:
            return -1
        self.clean_out = True
        prev = self.previous
        if (
            self.rules.miyako_ochi
            and prev is not None
            and self.n >= 3
            and prev[0] != seat
            and (self.active >> prev[0]) & 1
        ):
            # Miyako-ochi: the previous top drops out at once, hand discarded face down.
            dropped = prev[0]
            hands[dropped] = 0
            self.active &= ~(1 << dropped)
            self.out += (dropped,)
            self.penalised += (dropped,)
            return dropped
        return -1

    def _clear(self, leader: int) -> None:
        self.top = None
        self.last = -1
        self.passed = 0
        self.jback = False
        self.lock = 0
        self.streak = 0
        self.nlock = False
        self.to_act = leader if (self.active >> leader) & 1 else self._next_active(leader)

    def _finish(self) -> None:
        remaining = [s for s in range(self.n) if (self.active >> s) & 1]
        penalised = self.penalised
        clean = [s for s in self.out if s not in penalised]
        self.result = tuple(clean + remaining + list(reversed(penalised)))
        self.phase = OVER
        self.to_act = -1
        self.passed = 0

    # -- legal moves --------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The exact set of legal moves for the player to act (pass included
        when following); empty outside the play phase and while a choice is owed
        (see :meth:`legal_choices`).

        Each move is listed once; a set of cards that reads both as a group
        and a sequence appears once per form.
        """
        if self.phase != PLAY or self.pending is not None:
            return []
        moves = self._legal_moves()
        if self.rules.sandstorm and self.top is not None:
            threes = self.hands[self.to_act] & RANK_MASKS[RANK_3]
            if threes.bit_count() >= 3:
                # A sandstorm answers any field (RULES.md section 8), once per three 3s.
                have = {m.cards for m in moves if m.form == GROUP}
                for suit in range(4):
                    cards = threes & ~(1 << suit)
                    if cards.bit_count() == 3 and cards not in have:
                        have.add(cards)
                        storm = analyse(cards, GROUP, self.reversed, self.rules.sequence_min)
                        if storm is not None:
                            moves.append(storm)
        return moves

    def _legal_moves(self) -> list[Move]:
        hand = self.hands[self.to_act]
        top = self.top
        rules = self.rules
        joker_count = hand >> JOKER_SHIFT
        rev = self.revolution ^ self.jback
        lead_table, follow_table = group_tables(rules.sequence_min)
        if top is None:
            moves: list[Move] = []
            for r in range(NUM_RANKS):
                nb = (hand >> (4 * r)) & 0xF
                if nb:
                    moves += lead_table[r][nb][joker_count]
            if joker_count:
                moves.append(JOKER_ONLY[1])
                if joker_count == 2:
                    moves.append(JOKER_ONLY[2])
            if rules.leader_may_pass:
                moves.append(PASS)
            if hand & REAL_MASK:
                seq_min = rules.sequence_min
                beyond = rules.joker_beyond_ends
                lanes = suit_lanes(hand)
                for s in range(4):
                    ranks = (lanes >> (16 * s)) & 0x1FFF
                    if ranks.bit_count() + joker_count >= seq_min:
                        for group in sequences_for_suit(
                            s, ranks, joker_count, rev, seq_min, beyond
                        ):
                            moves += group
            return moves

        moves = [PASS]
        form = top.form
        size = top.size
        if form == SEQUENCE:
            lock = self.lock
            above_top = rules.sequence_beats == "above_top"
            if rev:
                bar = top.low if above_top else top.high  # new high must be below
            else:
                bar = top.high if above_top else top.low  # new low must be above
            lanes = suit_lanes(hand)
            seq_min = rules.sequence_min
            beyond = rules.joker_beyond_ends
            for s in range(4):
                if lock and lock != 1 << s:
                    continue
                ranks = (lanes >> (16 * s)) & 0x1FFF
                if ranks.bit_count() + joker_count < size:
                    continue
                for move in sequences_for_suit(s, ranks, joker_count, rev, seq_min, beyond)[size]:
                    if (move.high < bar) if rev else (move.low > bar):
                        moves.append(move)
            return moves

        top_rank = top.rank
        if top_rank == JOKER_RANK:
            # Nothing beats a lone joker or an all-joker group, except the
            # spade 3 on a lone joker.
            if size == 1 and rules.spade3_return and hand & SPADE_3:
                moves.append(lead_table[RANK_3][1][0][0])
            return moves
        lock = self.lock
        if self.nlock:
            target = top_rank - 1 if rev else top_rank + 1
            ranks_to_try: Sequence[int] = (target,) if 0 <= target < NUM_RANKS else ()
        elif rev:
            ranks_to_try = range(top_rank)
        else:
            ranks_to_try = range(top_rank + 1, NUM_RANKS)
        for r in ranks_to_try:
            nb = (hand >> (4 * r)) & 0xF
            if not nb:
                continue
            if lock:
                for move in follow_table[r][nb][joker_count][size]:
                    if not move.suits & ~lock:
                        moves.append(move)
            else:
                moves += follow_table[r][nb][joker_count][size]
        if size <= joker_count and not self.nlock:
            moves.append(JOKER_ONLY[size])
        return moves

    def legal_strings(self) -> list[str]:
        """The legal moves as move strings, or while a choice is owed the legal choices
        as card strings (rank strings for a bomber), as SCENARIOS.md lists them."""
        if self.pending is not None and self.phase == PLAY:
            owed = self.owed_choice()
            assert owed is not None
            if owed[1] == NAME_CHOICE:
                return [rank_text(r) for r in self.legal_choices()]
            return [format_cards(c) for c in self.legal_choices()]
        return [str(m) for m in self.legal_moves()]

    # -- house rules: choices (RULES.md section 8) ---------------------------------------

    def owed_choice(self) -> tuple[int, int, int, int] | None:
        """The choice the round waits for: (seat, kind, how many, receiver), kind an index
        of CHOICE_KINDS, receiver the seat a gift goes to (-1 for the other kinds);
        ``None`` when no choice is owed.

        >>> rules = RuleSet.preset("basic", seven_pass="groups")
        >>> r = Round.start(rules, ["S7 H7 S4 S5 S6", "HK", "D6"], leader=0).apply("S7 H7")
        >>> r.owed_choice(), r.to_act
        ((0, 0, 2, 1), 0)
        """
        p = self.pending
        if p is None:
            return None
        actor = p[0]
        held = count(self.hands[actor])
        if p[1]:
            return (actor, GIVE_CHOICE, min(p[1], held), self._next_active(actor))
        if p[2]:
            return (actor, DISCARD_CHOICE, min(p[2], held), -1)
        return (actor, NAME_CHOICE, p[3], -1)

    def legal_choices(self) -> list[int]:
        """The exact set of legal choices while one is owed: card sets to give or discard
        (every set of the right size from the hand, two jokers counted once), or rank sets
        to name (bit r: rank r, 0 the 3 ... 12 the 2). Empty when none is owed.

        >>> rules = RuleSet.preset("basic", ten_discard="groups")
        >>> r = Round.start(rules, ["ST S4 S5", "HK", "D6"], leader=0).apply("ST")
        >>> [format_cards(c) for c in r.legal_choices()]
        ['S4', 'S5']
        """
        owed = self.owed_choice()
        if owed is None or self.phase != PLAY:
            return []
        _, kind, k, _ = owed
        if kind == NAME_CHOICE:
            return [sum(1 << r for r in ranks) for ranks in combinations(range(NUM_RANKS), k)]
        hand = self.hands[owed[0]]
        real = [1 << i for i in range(JOKER_SHIFT) if hand >> i & 1]
        jokers = hand >> JOKER_SHIFT
        out: list[int] = []
        for j in range(min(jokers, k) + 1):
            for cards in combinations(real, k - j):
                out.append(sum(cards) + j * JOKER_UNIT)
        return out

    def choose(self, seat: int | None, cards: int | str) -> Round | Refusal:
        """Give (7渡し) or discard (10捨て) ``cards``, the choice owed by ``seat``
        (default: the seat that owes it).

        >>> rules = RuleSet.preset("basic", seven_pass="groups")
        >>> r = Round.start(rules, ["S7 S4 S5", "HK", "D6"], leader=0).apply("S7")
        >>> r.apply("pass").reason, r.choose(1, "HK").reason, r.choose(0, "S4 S5").reason
        ('choice_owed', 'not_your_turn', 'wrong_count')
        >>> r.choose(0, "S4").hands[1] == parse_cards("S4 HK")
        True
        """
        if self.phase != PLAY:
            return _R["round_over"] if self.phase == OVER else _R["wrong_phase"]
        owed = self.owed_choice()
        if owed is None or owed[1] == NAME_CHOICE:
            return _R["no_choice_owed"]
        actor, kind, k, receiver = owed
        if seat is not None and seat != actor:
            return _R["not_your_turn"]
        if isinstance(cards, str):
            cards = parse_cards(cards)
        if not contains(self.hands[actor], cards):
            return _R["not_in_hand"]
        if count(cards) != k:
            return _R["wrong_count"]
        new = self._copy()
        hands = list(self.hands)
        hands[actor] -= cards
        p = self.pending
        assert p is not None
        if kind == GIVE_CHOICE:
            hands[receiver] += cards
            new.pending = (actor, 0, p[2], p[3], p[4], p[5])
        else:
            new.discarded = self.discarded + cards
            new.pending = (actor, 0, 0, p[3], p[4], p[5])
        new.choices = self.choices + ((kind, actor, receiver, cards, 0, k),)
        outs: tuple[tuple[int, int], ...] = ()
        if not hands[actor]:
            # Going out by giving or discarding: not a finishing play (RULES.md section 8).
            outs = ((actor, new._go_out(actor, hands)),)
        new.hands = tuple(hands)
        new._after_choice(actor, kind, cards, receiver, 0, (), outs)
        return new

    def name(self, seat: int | None, ranks: int | str) -> Round | Refusal:
        """Name ranks for a 12ボンバー: ``ranks`` as rank letters (``"5 9"``) or a bit set
        of ranks; every hand discards every card of them, face up.

        >>> rules = RuleSet.preset("basic", twelve_bomber="groups")
        >>> r = Round.start(rules, ["SQ S4 S5", "H4 HK", "D6"], leader=0).apply("SQ")
        >>> r.name(0, "4 4").reason, r.name(0, "4 X").reason, r.name(0, "4 5").reason
        ('rank_repeated', 'not_a_rank', 'wrong_count')
        >>> [format_cards(h) for h in r.name(0, "4").hands], format_cards(r.name(0, "4").discarded)
        (['S5', 'HK', 'D6'], 'S4 H4')
        """
        if self.phase != PLAY:
            return _R["round_over"] if self.phase == OVER else _R["wrong_phase"]
        owed = self.owed_choice()
        if owed is None or owed[1] != NAME_CHOICE:
            return _R["no_choice_owed"]
        if isinstance(ranks, str):
            parsed = parse_ranks(ranks)
            if isinstance(parsed, Refusal):
                return parsed
            ranks = parsed
        elif not 0 <= ranks < 1 << NUM_RANKS:
            return _R["not_a_rank"]
        actor, _, k, _ = owed
        if seat is not None and seat != actor:
            return _R["not_your_turn"]
        if ranks.bit_count() != k:
            return _R["wrong_count"]
        mask = 0
        for r in range(NUM_RANKS):
            if ranks >> r & 1:
                mask |= RANK_MASKS[r]
        new = self._copy()
        hands = list(self.hands)
        order = [actor]
        seat_ = actor
        for _ in range(self.n - 1):
            seat_ += self.direction
            seat_ %= self.n
            order.append(seat_)
        taken: tuple[tuple[int, int], ...] = ()
        for s in order:
            lost = hands[s] & mask
            if lost:
                hands[s] -= lost
                taken += ((s, lost),)
                new.discarded += lost
        p = self.pending
        assert p is not None
        new.pending = (actor, 0, 0, 0, p[4], p[5])
        new.choices = self.choices + ((NAME_CHOICE, actor, -1, 0, ranks, k),)
        # The emptied go out one by one in the direction of play, the namer first.
        outs: tuple[tuple[int, int], ...] = ()
        for s in order:
            if (new.active >> s) & 1 and not hands[s]:
                outs += ((s, new._go_out(s, hands)),)
        new.hands = tuple(hands)
        new._after_choice(actor, NAME_CHOICE, 0, -1, ranks, taken, outs)
        return new

    def _after_choice(
        self,
        actor: int,
        kind: int,
        cards: int,
        receiver: int,
        ranks: int,
        taken: tuple[tuple[int, int], ...],
        outs: tuple[tuple[int, int], ...],
    ) -> None:
        # The next choice owed, or the clear or skips that wait for the choices.
        jb_was = self.jback
        clear = -1
        skipped: tuple[int, ...] = ()
        p = self.pending
        assert p is not None
        if self.active.bit_count() <= 1:
            self.pending = None
            self._finish()
        elif (self.active >> actor) & 1 and (p[1] or p[2] or p[3]):
            self.to_act = actor
        else:
            self.pending = None
            clear, skipped = self._resolve(actor, p[4], p[5], self.passed)
        self.why = (
            _W_CHOICE,
            actor,
            kind,
            cards,
            receiver,
            ranks,
            taken,
            outs,
            clear,
            skipped,
            jb_was and clear >= 0,
        )

    # -- applying moves ----------------------------------------------------------------

    def apply(
        self, move: Move | str, seat: int | None = None, form: str | int | None = None
    ) -> Round | Refusal:
        """Play ``move`` (a :class:`Move`, or cards as text, or ``"pass"``)
        for ``seat`` (default: the player to act).

        Returns the new round, or a :class:`Refusal`; ``self`` never changes.
        Text with an unknown card raises :class:`CardError`.
        """
        if self.phase != PLAY:
            return _R["round_over"] if self.phase == OVER else _R["wrong_phase"]
        if self.pending is not None:
            return _R["choice_owed"]
        actor = self.to_act
        if seat is not None and seat != actor:
            if not 0 <= seat < self.n:
                return _R["not_your_turn"]
            if (
                self.rules.pass_until_clear
                and (self.passed >> seat) & 1
                and (self.active >> seat) & 1
            ):
                return _R["passed_until_clear"]
            return _R["not_your_turn"]
        rev = self.revolution ^ self.jback
        if isinstance(move, str):
            text = move.strip()
            if text == "pass":
                move = PASS
            else:
                cards = parse_cards(text)
                if not contains(self.hands[actor], cards):
                    return _R["not_in_hand"]
                form_code = _form_code(form)
                analysed = analyse(
                    cards, form_code, rev, self.rules.sequence_min, self.rules.joker_beyond_ends
                )
                if analysed is None:
                    return _R["not_a_combination"]
                move = analysed
        elif move.form != PASS_FORM:
            if not contains(self.hands[actor], move.cards):
                return _R["not_in_hand"]
            # A sequence read under the other order, or (with ``joker_beyond_ends``) one whose
            # jokers may have been placed by a reader that did not know the option: read it
            # the way this round's rules read it.
            if (move.reversed is not None and move.reversed != rev) or (
                move.form == SEQUENCE and move.jokers and self.rules.joker_beyond_ends
            ):
                reread = analyse(
                    move.cards,
                    move.form,
                    rev,
                    self.rules.sequence_min,
                    self.rules.joker_beyond_ends,
                )
                if reread is None:  # too short a sequence for these rules
                    return _R["not_a_combination"]
                move = reread
            elif move.form == SEQUENCE and move.size < self.rules.sequence_min:
                return _R["not_a_combination"]
        if move.form == PASS_FORM:
            return self._pass(actor)
        return self._play(actor, move, rev)

    def _pass(self, actor: int) -> Round | Refusal:
        rules = self.rules
        if self.top is None and not rules.leader_may_pass:
            return _R["leader_cannot_pass"]
        new = self._copy()
        new.history = (self.history, actor, PASS)
        passed = self.passed | (1 << actor)
        new.passed = passed
        if self.top is None:
            # leader_may_pass: when every player still in has passed on the empty
            # field, the lead comes back to the one it was given to (the next after the
            # last to pass, as nobody can go out meanwhile).
            others = self.active
            leader = self._next_active(actor)
        elif rules.return_to_last:
            # The last player is asked too: the field clears once it passes as well.
            others = self.active
            leader = self.last
        else:
            others = self.active & ~(1 << self.last)
            leader = self.last
        if passed & others == others:
            new._clear(leader)
            new.why = (
                _W_PASS,
                actor,
                PASS,
                _F_JB_WAS if self.jback else 0,
                None,
                -1,
                _CLEAR_PASSED,
                (),
            )
        else:
            new.to_act = new._next_to_act(actor)
            new.why = (_W_PASS, actor, PASS, 0, None, -1, -1, ())
        return new

    def _play(self, actor: int, move: Move, rev: bool) -> Round | Refusal:
        top = self.top
        rules = self.rules
        form = move.form
        rank = move.rank
        spade3 = False
        flags = 0
        if top is not None and not (rules.sandstorm and is_sandstorm(move, rules)):
            # (A sandstorm may be played on any field, whatever its form, order or lock.)
            if form != top.form:
                return _R["wrong_form"]
            if move.size != top.size:
                return _R["wrong_count"]
            if move.cards == SPADE_3 and returns_spade3(move, rules, top):
                spade3 = True
                flags = _F_S3
            else:
                lock = self.lock
                if lock and move.suits & ~lock:
                    return _R["suit_locked"]
                if form == SEQUENCE:
                    above_top = rules.sequence_beats == "above_top"
                    if rev:
                        if not move.high < (top.low if above_top else top.high):
                            return _R["not_stronger"]
                    elif not move.low > (top.high if above_top else top.low):
                        return _R["not_stronger"]
                else:
                    new_strength = _strength(rank, rev)
                    top_strength = _strength(top.rank, rev)
                    if self.nlock and (rank == JOKER_RANK or new_strength != top_strength + 1):
                        return _R["number_locked"]
                    if new_strength <= top_strength:
                        return _R["not_stronger"]

        # Accepted: work out the play's effects, all judged before any of them.
        sand = rules.sandstorm and is_sandstorm(move, rules)
        # The same predicates the computer players ask (rules_engine.effects), behind
        # cheap guards: both readings of the 8-cut (and of 11-back) need a real 8 (J) in
        # the play, and a single never toggles revolution.
        cards = move.cards
        cut = (bool(cards & _MASK_8) or (rules.eight_cut_joker and form == SEQUENCE)) and cuts(
            move, rules
        )
        jb = bool(cards & _MASK_J) and toggles_jback(move, rules)
        revo = form != SINGLE and toggles_revolution(move, rules)
        if cut:
            flags |= _F_CUT

        new = self._copy()
        hand = self.hands[actor] - move.cards
        hands = list(self.hands)
        hands[actor] = hand
        new.top = move
        new.last = actor

        # Suit lock and number lock, against the play this one beat.
        if rules.joker_suit:
            # A joker takes a suit (UECda): the play carries its whole composition.
            move = with_joker_suits(move, top, self.lock)
            new.top = move
            has_comp = bool(move.cards & REAL_MASK)
            top_comp = top is not None and bool(top.cards & REAL_MASK)
        else:
            has_comp = move.jokers == 0
            top_comp = top is not None and top.jokers == 0
        if top is None:
            new.streak = 1 if has_comp else 0
        else:
            if has_comp and top_comp and move.suits == top.suits:
                new.streak = self.streak + 1
            else:
                new.streak = 1 if has_comp else 0
            if rules.suit_lock and not self.lock and new.streak >= rules.suit_lock_after:
                new.lock = move.suits
                flags |= _F_LOCK
            if (
                rules.number_lock
                and not self.nlock
                and form != SEQUENCE
                and rank != JOKER_RANK
                and top.rank != JOKER_RANK
                and _strength(rank, rev) == _strength(top.rank, rev) + 1
            ):
                new.nlock = True
                flags |= _F_NLOCK
        if revo:
            new.revolution = not self.revolution
            flags |= _F_REVO
        if jb:
            new.jback = not self.jback
            flags |= _F_JB
        if self.jback:
            flags |= _F_JB_WAS
        new.history = (self.history, actor, move)
        entry = None
        dropped = -1

        # House rules that land with the play (RULES.md section 8, step 1).
        if sand:
            flags |= _F_SAND
        if rules.nine_reverse != "off" and house_count(rules.nine_reverse, move, _RANK_9):
            new.direction = -self.direction
            flags |= _F_REV

        # Going out.
        if not hand:
            flags |= _F_OUT
            entry = finish_entry(move, rules, self.revolution, cut, spade3, revo)
            if entry is not None:
                new.active = self.active & ~(1 << actor)
                new.out = self.out + (actor,)
                new.penalised = self.penalised + (actor,)
            else:
                dropped = new._go_out(actor, hands)
        new.hands = tuple(hands)
        if not rules.pass_until_clear:
            new.passed = 0

        if new.active.bit_count() <= 1:
            new._finish()
            new.why = (_W_PLAY, actor, move, flags, entry, dropped, -1, ())
            return new
        clear = _CLEAR_CUT if cut else _CLEAR_S3 if spade3 else _CLEAR_SAND if sand else -1
        skips = house_count(rules.five_skip, move, _RANK_5) if rules.five_skip != "off" else 0
        if hand and (
            rules.seven_pass != "off" or rules.ten_discard != "off" or rules.twelve_bomber != "off"
        ):
            give = house_count(rules.seven_pass, move, _RANK_7)
            discard = house_count(rules.ten_discard, move, _RANK_T)
            name = house_count(rules.twelve_bomber, move, _RANK_Q)
            if give or discard or name:
                # Step 2: the round waits for the player's choices.
                new.pending = (actor, give, discard, name, clear, skips)
                new.to_act = actor
                new.why = (_W_PLAY, actor, move, flags, entry, dropped, -1, ())
                return new
        clear, skipped = new._resolve(actor, clear, skips, self.passed)
        new.why = (_W_PLAY, actor, move, flags, entry, dropped, clear, skipped)
        return new

    def _resolve(
        self, actor: int, clear: int, skips: int, passed_before: int
    ) -> tuple[int, tuple[int, ...]]:
        """Steps 3 and 4 of RULES.md section 8 once no choice is owed: a clear, or the
        skips, then the turn moves on. Returns the clear reason index (-1: none) and the
        seats skipped."""
        rules = self.rules
        if clear >= 0:
            self._clear(actor)
            return clear, ()
        if rules.pass_until_clear:
            others = self.active & ~(1 << actor)
            if passed_before & others == others and not (
                rules.return_to_last and (self.active >> actor) & 1
            ):
                # Everyone left has passed already: nobody can answer (with
                # return_to_last the turn comes back to the player, who may play again).
                self._clear(actor)
                return _CLEAR_NOBODY, ()
        seat = actor
        skipped: tuple[int, ...] = ()
        others = self.active & ~(1 << actor)
        for _ in range(skips):
            nxt = self._next_to_act(seat)
            if nxt < 0 or nxt == actor:
                break
            skipped += (nxt,)
            self.passed |= 1 << nxt
            seat = nxt
            if self.passed & others == others:
                # Every other player has passed: the field clears, the skips left drop.
                self._clear(actor)
                return _CLEAR_PASSED, skipped
        self.to_act = self._next_to_act(seat)
        return -1, skipped

    # -- the exchange -----------------------------------------------------------------

    def give(self, seat: int, cards: int | str) -> Round | Refusal:
        """Return cards in the exchange: ``seat`` gives back as many cards as
        it received, any of its cards (received ones included)."""
        if self.phase != EXCHANGE:
            return _R["round_over"] if self.phase == OVER else _R["wrong_phase"]
        if not 0 <= seat < self.n:
            return _R["not_your_turn"]
        if isinstance(cards, str):
            cards = parse_cards(cards)
        if not contains(self.hands[seat], cards):
            return _R["not_in_hand"]
        owed = self.owed[seat]
        if owed == 0 or count(cards) != owed:
            return _R["bad_exchange"]
        receiver = self.partner[seat]
        new = self._copy()
        hands = list(self.hands)
        hands[seat] -= cards
        hands[receiver] += cards
        new.hands = tuple(hands)
        # A seat may have given its whole hand away and get cards back now.
        new.active = sum(1 << s for s in range(self.n) if hands[s])
        owed_list = list(self.owed)
        owed_list[seat] = 0
        new.owed = tuple(owed_list)
        new.exchange = self.exchange + ((seat, receiver, cards, False),)
        new.why = (_W_GIVE, seat, receiver, cards)
        if not any(new.owed):
            new.phase = PLAY
            if self.rules.diamond3_leads:
                new.first_leader = _first_leader(hands)
            leader = new.first_leader
            new.to_act = leader if (new.active >> leader) & 1 else new._next_active(leader)
            if new.active.bit_count() <= 1:
                new._finish()
        return new

    # -- convenience ------------------------------------------------------------------

    def move(self, text: str, form: str | None = None) -> Move | Refusal:
        """The move that ``text`` means for the player to act, read under the
        current order (or a refusal saying why the cards make none)."""
        if text.strip() == "pass":
            return PASS
        cards = parse_cards(text)
        move = analyse(
            cards,
            _form_code(form),
            self.reversed,
            self.rules.sequence_min,
            self.rules.joker_beyond_ends,
        )
        return move if move is not None else _R["not_a_combination"]


_KEY_SLOTS = tuple(name for name in ROUND_FIELDS if name != "why")


def _round_again(items: tuple[tuple[str, object], ...]) -> Round:
    """A pickled Round back (see :meth:`Round.__reduce__`)."""
    r = Round()
    for name, value in items:
        setattr(r, name, value)
    return r


def rank_text(ranks: int) -> str:
    """A set of ranks (bit r: rank r) as rank letters in normal order.

    >>> rank_text(0b1000000100)
    '5 Q'
    """
    return " ".join(RANKS[r] for r in range(NUM_RANKS) if ranks >> r & 1)


def parse_ranks(text: str) -> int | Refusal:
    """Rank letters (``"5 9"``, any order) as a set of ranks, or the refusal a bomber's
    naming gets: ``not_a_rank`` (the joker is not one), ``rank_repeated``.

    >>> parse_ranks("Q 5") == 0b1000000100, parse_ranks("JK").reason, parse_ranks("5 5").reason
    (True, 'not_a_rank', 'rank_repeated')
    """
    ranks = 0
    repeated = False
    for token in text.split():
        if len(token) != 1 or token not in RANKS:
            return _R["not_a_rank"]
        bit = 1 << RANKS.index(token)
        if ranks & bit:
            repeated = True
        ranks |= bit
    return _R["rank_repeated"] if repeated else ranks


def _hand_value(hand: int | str, jokers: int) -> int:
    if isinstance(hand, str):
        return parse_cards(hand, jokers)
    if isinstance(hand, int) and not isinstance(hand, bool) and hand >= 0:
        return hand
    raise CardError(f"a hand must be cards, not {hand!r}")


def _form_code(form: str | int | None) -> int | None:
    if form is None or isinstance(form, int):
        return form
    try:
        return FORMS[form]
    except KeyError:
        raise ValueError(f"unknown form {form!r}") from None


def _seed_text(seed: int | str) -> str:
    # A text seed: random.Random hashes it with SHA-512, the same on every
    # platform and Python version.
    return f"daifugo:{seed}"


def _first_leader(hands: Sequence[int]) -> int:
    for seat, hand in enumerate(hands):
        if hand & DIAMOND_3:
            return seat
    # Nobody holds the diamond 3: the weakest card leads, ties C D H S (house).
    for r in range(NUM_RANKS):
        for suit in (3, 2, 1, 0):
            bit = 1 << (4 * r + suit)
            for seat, hand in enumerate(hands):
                if hand & bit:
                    return seat
    return 0


def with_joker_suits(move: Move, top: Move | None, lock: int) -> Move:
    """``move`` with the suits its jokers take under ``joker_suit`` (UECda).

    A sequence's jokers take its suit, which its real cards already say. In a group, the
    jokers take the suits that make the play's composition the one it beats (or the lock)
    when the real cards allow, so that it starts or keeps a suit lock; otherwise (leading,
    or no match possible) the missing suits in S H D C order. A play of jokers only has no
    composition. The move returned equals ``move`` (same cards and form); only ``suits``
    differs.

    >>> from rules_engine.moves import analyse
    >>> from rules_engine.cards import parse_cards
    >>> pair = analyse(parse_cards("S4 H4"), None, False, 3)
    >>> with_joker_suits(analyse(parse_cards("S5 JK"), None, False, 3), pair, 0).suits
    3
    >>> with_joker_suits(analyse(parse_cards("D5 JK"), None, False, 3), pair, 0).suits
    5
    """
    if move.form != GROUP or not move.jokers or not move.cards & REAL_MASK:
        return move
    real_suits = move.suits
    want = lock
    if not want and top is not None and top.form == GROUP and top.cards & REAL_MASK:
        want = top.suits
    if want and want.bit_count() == move.size and real_suits & ~want == 0:
        suits = want
    else:
        suits = real_suits
        missing = move.jokers
        for s in range(4):
            if missing and not (suits >> s) & 1:
                suits |= 1 << s
                missing -= 1
    if suits == real_suits:
        return move
    taken = Move(move.cards, move.form, move.rank, move.low, move.high, None, move.ambiguous)
    taken.suits = suits
    return taken


def strongest_cards(hand: int, k: int) -> int:
    """The ``k`` strongest cards of a hand as the exchange takes them: jokers,
    then 2 A K ...; between equal ranks S H D C.

    >>> format_cards(strongest_cards(parse_cards("D2 S2 H2 C5"), 2))
    'S2 H2'
    >>> format_cards(strongest_cards(parse_cards("JK S4 C3"), 2))
    'S4 JK'
    """
    taken = 0
    jokers_held = hand >> JOKER_SHIFT
    use = min(jokers_held, k)
    taken += use * JOKER_UNIT
    k -= use
    r = NUM_RANKS - 1
    while k and r >= 0:
        for suit in range(4):
            bit = 1 << (4 * r + suit)
            if hand & bit:
                taken |= bit
                k -= 1
                if not k:
                    break
        r -= 1
    return taken


def titles_for(result: Sequence[int]) -> tuple[str, ...]:
    """Title per seat from the seats in finishing order."""
    names = TITLES_BY_SIZE[len(result)]
    titles = [""] * len(result)
    for place, seat in enumerate(result):
        titles[seat] = names[place]
    return tuple(titles)
