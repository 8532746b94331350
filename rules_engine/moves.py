"""Moves: a pass, or cards with a form (single, group, sequence) and their reading.

A :class:`Move` is identified by its cards and form; two moves with the same
cards and form are the same move. It also carries its *reading* (the rank of a
single or group, the ranks a sequence covers once its jokers are placed), which
the engine needs to compare plays. Readings of singles and groups never depend
on the order; a sequence with a joker at an end reads differently while the
order is reversed, so such a move remembers the order it was read under.

>>> from rules_engine.cards import parse_cards
>>> m = analyse(parse_cards("SA S2 JK"), None, reversed_order=False, sequence_min=3)
>>> str(m), m.form_name, rank_name(m.low), rank_name(m.high)
('SA S2 JK', 'sequence', 'K', '2')
>>> str(analyse(parse_cards("S5 JK JK"), GROUP, False, 3))
'S5 JK JK/group'
>>> analyse(parse_cards("S5 JK JK"), None, False, 3) is None   # reads both ways
True
"""

from __future__ import annotations

from typing import Final

from .cards import (
    JOKER_RANK,
    JOKER_SHIFT,
    JOKER_UNIT,
    NUM_RANKS,
    RANKS,
    REAL_MASK,
    format_cards,
    suit_lanes,
)

PASS_FORM: Final = 0
SINGLE: Final = 1
GROUP: Final = 2
SEQUENCE: Final = 3
FORM_NAMES = ("pass", "single", "group", "sequence")
FORMS = {"single": SINGLE, "group": GROUP, "sequence": SEQUENCE}


def rank_name(rank: int) -> str:
    return "JK" if rank == JOKER_RANK else RANKS[rank]


class Move:
    """A pass or a play. Immutable by convention; hash and equality use cards and form.

    Attributes: ``cards`` (card set), ``form``, ``size``, ``jokers``, ``suits``
    (suit set of the ordinary cards, 4 bits S H D C), ``rank`` (single/group:
    rank index, 13 when only jokers; sequence: its lowest rank), ``low`` and
    ``high`` (ranks covered), ``reversed`` (the order a sequence with an end
    joker was read under, else ``None``), ``ambiguous`` (the same cards read
    as both a group and a sequence, so the form is part of its text).
    """

    __slots__ = (
        "cards",
        "form",
        "size",
        "jokers",
        "suits",
        "rank",
        "low",
        "high",
        "reversed",
        "ambiguous",
        "_hash",
    )

    cards: int
    form: int
    size: int
    jokers: int
    suits: int
    rank: int
    low: int
    high: int
    reversed: bool | None
    ambiguous: bool

    def __init__(
        self,
        cards: int,
        form: int,
        rank: int = -1,
        low: int = -1,
        high: int = -1,
        reversed_order: bool | None = None,
        ambiguous: bool = False,
    ) -> None:
        self.cards = cards
        self.form = form
        real = cards & REAL_MASK
        self.jokers = cards >> JOKER_SHIFT
        self.size = real.bit_count() + self.jokers
        suits = 0
        lanes = suit_lanes(real)
        for s in range(4):
            if (lanes >> (16 * s)) & 0x1FFF:
                suits |= 1 << s
        self.suits = suits
        self.rank = rank
        self.low = low
        self.high = high
        self.reversed = reversed_order
        self.ambiguous = ambiguous
        self._hash = hash((cards, form))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickled as its values (observations cross into the computer players' processes);
        # a compiled Move has no __dict__ or slots for pickle to read (rules_engine/native.py).
        return (
            _move_again,
            (
                self.cards,
                self.form,
                self.rank,
                self.low,
                self.high,
                self.reversed,
                self.ambiguous,
                self.suits,
            ),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.cards == other.cards and self.form == other.form

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        if self.form == PASS_FORM:
            return "pass"
        text = format_cards(self.cards)
        if self.ambiguous:
            text += "/" + FORM_NAMES[self.form]
        return text

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    @property
    def is_pass(self) -> bool:
        return self.form == PASS_FORM

    @property
    def form_name(self) -> str:
        return FORM_NAMES[self.form]

    @property
    def only_jokers(self) -> bool:
        return self.form != PASS_FORM and not (self.cards & REAL_MASK)


PASS = Move(0, PASS_FORM)


def _move_again(
    cards: int,
    form: int,
    rank: int,
    low: int,
    high: int,
    reversed_order: bool | None,
    ambiguous: bool,
    suits: int,
) -> Move:
    """A pickled Move back (see :meth:`Move.__reduce__`); ``suits`` as it was (a UECda
    joker may carry another suit than the cards, uecda/protocol.py)."""
    move = Move(cards, form, rank, low, high, reversed_order, ambiguous)
    move.suits = suits
    return move


# -- readings ------------------------------------------------------------------


def read_sequence(
    ranks: int, joker_count: int, reversed_order: bool, beyond: bool = False
) -> tuple[int, int] | None:
    """Ranks ``(low, high)`` that ordinary ``ranks`` (a 13-bit mask) plus jokers cover.

    Jokers first fill gaps, then extend the end that favours the player (the
    top normally, the bottom while the order is reversed), never past 2 or
    below 3; with ``beyond`` (the ``joker_beyond_ends`` option) a joker may
    stand one place past the 2 (rank 13) or below the 3 (rank -1). ``None``
    when the cards cannot make one run.

    >>> read_sequence(0b11 << 11, 1, False)   # A 2 + joker: K A 2
    (10, 12)
    >>> read_sequence(0b11, 1, True)          # 3 4 + joker, reversed: 3 4 5
    (0, 2)
    >>> read_sequence(0b11 << 11, 1, False, beyond=True)   # A 2 and a joker past the 2
    (11, 13)
    >>> read_sequence(0b11, 1, True, beyond=True)          # reversed: a joker below the 3
    (-1, 1)
    """
    if not ranks:
        return None
    lo = (ranks & -ranks).bit_length() - 1
    hi = ranks.bit_length() - 1
    count = ranks.bit_count()
    gaps = hi - lo + 1 - count
    if gaps > joker_count:
        return None
    length = count + joker_count
    bottom, top = (-1, NUM_RANKS) if beyond else (0, NUM_RANKS - 1)
    if length > top - bottom + 1:
        return None
    extra = joker_count - gaps
    if reversed_order:
        low = lo - extra
        if low < bottom:
            low = bottom
        return low, low + length - 1
    high = hi + extra
    if high > top:
        high = top
    return high - length + 1, high


def _single_rank(real: int) -> int:
    """Rank of a set of ordinary cards when they share one rank, else -1."""
    low = (real & -real).bit_length() - 1
    rank = low >> 2
    if real & ~(0xF << (4 * rank)):
        return -1
    return rank


def _sequence_suit(real: int) -> tuple[int, int]:
    """``(suit, ranks)`` when ordinary cards are all of one suit, else ``(-1, 0)``."""
    lanes = suit_lanes(real)
    for s in range(4):
        ranks = (lanes >> (16 * s)) & 0x1FFF
        if ranks:
            if ranks.bit_count() == real.bit_count():
                return s, ranks
            return -1, 0
    return -1, 0


def analyse(
    cards: int, form: int | None, reversed_order: bool, sequence_min: int, beyond: bool = False
) -> Move | None:
    """The move that ``cards`` make, with ``form`` where it is given.

    Returns ``None`` when the cards make no combination, when they read both
    as a group and a sequence and no form is given, or when the form given is
    one they cannot take. ``reversed_order`` is the order in force as the move
    is played (it decides where a sequence's spare jokers go); ``beyond`` is
    the ``joker_beyond_ends`` option (see :func:`read_sequence`).
    """
    real = cards & REAL_MASK
    joker_count = cards >> JOKER_SHIFT
    size = real.bit_count() + joker_count
    if size == 0:
        return None
    if size == 1:
        if form not in (None, SINGLE):
            return None
        rank = JOKER_RANK if joker_count else _single_rank(real)
        return Move(cards, SINGLE, rank, rank, rank)
    # Group reading.
    group_rank = JOKER_RANK if not real else _single_rank(real)
    can_group = group_rank >= 0
    # Sequence reading.
    seq: tuple[int, int] | None = None
    if size >= sequence_min and real:
        suit, ranks = _sequence_suit(real)
        if suit >= 0:
            seq = read_sequence(ranks, joker_count, reversed_order, beyond)
    can_sequence = seq is not None
    ambiguous = can_group and can_sequence
    if form is None:
        if ambiguous:
            return None
        form = GROUP if can_group else SEQUENCE if can_sequence else None
        if form is None:
            return None
    if form == GROUP and can_group:
        return Move(cards, GROUP, group_rank, group_rank, group_rank, None, ambiguous)
    if form == SEQUENCE and seq is not None:
        low, high = seq
        # Only a sequence with spare jokers reads differently by order.
        span_fixed = joker_count == 0 or (
            low >= 0
            and high < NUM_RANKS
            and (real >> (4 * low)) & 0xF
            and (real >> (4 * high)) & 0xF
        )
        return Move(
            cards, SEQUENCE, low, low, high, None if span_fixed else reversed_order, ambiguous
        )
    return None


# -- precomputed tables for move generation ----------------------------------------

#: Subsets of each 4-bit rank nibble, by nibble.
NIBBLE_SUBSETS = tuple(tuple(sub for sub in range(1, 16) if sub & nb == sub) for nb in range(16))


def _group_tables(
    ambiguous_triples: bool,
) -> tuple[list[list[list[list[Move]]]], list[list[list[list[list[Move]]]]]]:
    """``lead[r][nibble][j]``: every single/group at rank ``r`` using held suits
    ``nibble`` and at most ``j`` jokers. ``follow[r][nibble][j][n]``: those of size ``n``."""
    made: dict[tuple[int, int], Move] = {}
    lead: list[list[list[list[Move]]]] = []
    follow: list[list[list[list[list[Move]]]]] = []
    for r in range(NUM_RANKS):
        lead_r: list[list[list[Move]]] = []
        follow_r: list[list[list[list[Move]]]] = []
        for nb in range(16):
            lead_nb: list[list[Move]] = []
            follow_nb: list[list[list[Move]]] = []
            for jmax in range(3):
                moves: list[Move] = []
                by_size: list[list[Move]] = [[] for _ in range(7)]
                for sub in NIBBLE_SUBSETS[nb]:
                    for j in range(jmax + 1):
                        cards = (sub << (4 * r)) + j * JOKER_UNIT
                        size = sub.bit_count() + j
                        form = SINGLE if size == 1 else GROUP
                        key = (cards, form)
                        move = made.get(key)
                        if move is None:
                            amb = ambiguous_triples and sub.bit_count() == 1 and j == 2
                            move = Move(cards, form, r, r, r, None, amb)
                            made[key] = move
                        moves.append(move)
                        by_size[size].append(move)
                lead_nb.append(moves)
                follow_nb.append(by_size)
            lead_r.append(lead_nb)
            follow_r.append(follow_nb)
        lead.append(lead_r)
        follow.append(follow_r)
    return lead, follow


_GROUP_TABLES = {True: _group_tables(True), False: _group_tables(False)}

LONE_JOKER = Move(JOKER_UNIT, SINGLE, JOKER_RANK, JOKER_RANK, JOKER_RANK)
DOUBLE_JOKER = Move(2 * JOKER_UNIT, GROUP, JOKER_RANK, JOKER_RANK, JOKER_RANK)
#: Joker-only moves by size (index 0 unused).
JOKER_ONLY: tuple[Move, ...] = (PASS, LONE_JOKER, DOUBLE_JOKER)


def group_tables(
    sequence_min: int,
) -> tuple[list[list[list[list[Move]]]], list[list[list[list[list[Move]]]]]]:
    """Group tables for a rule set (a triple of one card and two jokers reads
    both ways only when sequences of three exist)."""
    return _GROUP_TABLES[sequence_min <= 3]


_SEQ_CACHE: dict[tuple[int, int, int, bool, int, bool], list[list[Move]]] = {}
# Kept small on purpose: every cached Move is a long-lived object the garbage collector
# walks on each full collection; at 200,000 entries those collections (and the clear)
# paused searches for up to a second and a half, for no measurable gain in speed.
# A program that does not search may keep it smaller (set_sequence_cache_limit).
_SEQ_CACHE_LIMIT = 20_000


def set_sequence_cache_limit(entries: int) -> None:
    """Bound the sequences cache to ``entries`` hands (20,000 by default; about 1.3 kB
    each). A search fills it with the hands of its playouts; a long-lived process that
    only asks for legal moves now and then (a web worker) keeps its memory flat with a
    few thousand. Takes effect at once.

    >>> from rules_engine import moves
    >>> moves.set_sequence_cache_limit(100)
    >>> moves._SEQ_CACHE_LIMIT
    100
    >>> moves.set_sequence_cache_limit(20_000)
    """
    global _SEQ_CACHE_LIMIT
    if entries < 1:
        raise ValueError("the cache holds at least one entry")
    _SEQ_CACHE_LIMIT = entries
    if len(_SEQ_CACHE) > entries:
        _SEQ_CACHE.clear()


def sequences_for_suit(
    suit: int,
    ranks: int,
    joker_count: int,
    reversed_order: bool,
    sequence_min: int,
    beyond: bool = False,
) -> list[list[Move]]:
    """Every sequence from ``ranks`` (held ranks of ``suit``) and up to
    ``joker_count`` jokers, grouped by size (index = number of cards); with
    ``beyond``, also those whose joker stands past the 2 or below the 3.

    >>> [str(m) for m in sequences_for_suit(0, 0b11 << 11, 1, False, 3)[3]]
    ['SA S2 JK']
    >>> len(sequences_for_suit(0, 0b11 << 11, 1, False, 3, beyond=True)[3])
    1
    """
    key = (suit, ranks, joker_count, reversed_order, sequence_min, beyond)
    cached = _SEQ_CACHE.get(key)
    if cached is not None:
        return cached
    # Positions: 0..12 are the ranks; with ``beyond`` the windows run over 15 positions
    # (-1..13) of which the two outer ones can only be jokers.
    shift = 1 if beyond else 0
    places = NUM_RANKS + 2 * shift
    held_places = ranks << shift
    by_size: list[list[Move]] = [[] for _ in range(places + 1)]
    if ranks:
        seen: set[tuple[int, int]] = set()
        for lo in range(places):
            for hi in range(lo + sequence_min - 1, places):
                length = hi - lo + 1
                window = ((1 << length) - 1) << lo
                held = (held_places & window) >> shift
                missing = length - held.bit_count()
                if missing > joker_count:
                    continue
                # Use every held rank in the window, or leave out up to the
                # spare jokers' worth of them (a joker may stand in for a card
                # one holds).
                spare = joker_count - missing
                choices = [held]
                if spare:
                    bits = [1 << i for i in range(NUM_RANKS) if held >> i & 1]
                    for a in range(len(bits)):
                        choices.append(held ^ bits[a])
                        if spare >= 2:
                            for b in range(a + 1, len(bits)):
                                choices.append(held ^ bits[a] ^ bits[b])
                for chosen in choices:
                    if not chosen:
                        continue
                    used_jokers = length - chosen.bit_count()
                    if (chosen, used_jokers) in seen:
                        continue
                    seen.add((chosen, used_jokers))
                    reading = read_sequence(chosen, used_jokers, reversed_order, beyond)
                    if reading is None:
                        continue
                    cards = used_jokers * JOKER_UNIT
                    bits_left = chosen
                    while bits_left:
                        low_bit = bits_left & -bits_left
                        cards |= 1 << (4 * (low_bit.bit_length() - 1) + suit)
                        bits_left ^= low_bit
                    move = analyse(cards, SEQUENCE, reversed_order, sequence_min, beyond)
                    if move is not None:
                        by_size[length].append(move)
    if len(_SEQ_CACHE) >= _SEQ_CACHE_LIMIT:
        _SEQ_CACHE.clear()
    _SEQ_CACHE[key] = by_size
    return by_size
