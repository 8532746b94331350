"""Cards, notation and card sets.

A card set (a hand, the cards of a move) is one ``int``:

* bit ``4 * rank + suit`` holds an ordinary card, with ``rank`` 0..12 for
  ``3 4 5 6 7 8 9 T J Q K A 2`` and ``suit`` 0..3 for ``S H D C``;
* the value above bit 52 is the **number** of jokers (0, 1 or 2).

Two jokers are the same card (a hand is a multiset), so they are counted, not
placed. Canonical order (RULES.md section 1) is ascending bit order, jokers
last, which is why rank is the high part of the index.

>>> format_cards(parse_cards("HT S3 JK"))
'S3 HT JK'
>>> count(parse_cards("JK JK S2"))
3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

RANKS = "3456789TJQKA2"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
JOKER = "JK"

NUM_RANKS: Final = 13
#: Rank index of the joker where a rank is needed (above every ordinary rank).
JOKER_RANK: Final = 13
RANK_3: Final = 0
RANK_8: Final = 5
RANK_J: Final = 8
RANK_2: Final = 12

S, H, D, C = 0, 1, 2, 3

JOKER_SHIFT: Final = 52
#: One joker, as it is added to a card set.
JOKER_UNIT: Final = 1 << JOKER_SHIFT
#: Every ordinary card.
REAL_MASK: Final = (1 << JOKER_SHIFT) - 1
#: The four cards of each rank.
RANK_MASKS: Final = tuple(0xF << (4 * r) for r in range(NUM_RANKS))
#: The thirteen cards of each suit.
SUIT_MASKS: Final = tuple(sum(1 << (4 * r + s) for r in range(NUM_RANKS)) for s in range(4))
SPADE_3: Final = 1 << (4 * RANK_3 + S)
DIAMOND_3: Final = 1 << (4 * RANK_3 + D)


class CardError(ValueError):
    """A card code that does not exist, or a card given more often than a deck holds."""


def card_index(code: str) -> int:
    """Bit index of an ordinary card code.

    >>> card_index("S3"), card_index("C2")
    (0, 51)
    """
    if len(code) != 2 or code[0] not in SUITS or code[1] not in RANKS:
        raise CardError(f"unknown card {code!r}")
    return 4 * RANKS.index(code[1]) + SUITS.index(code[0])


def card_code(index: int) -> str:
    """Code of the ordinary card at a bit index.

    >>> card_code(51)
    'C2'
    """
    return SUITS[index & 3] + RANKS[index >> 2]


def rank_of(index: int) -> int:
    return index >> 2


def suit_of(index: int) -> int:
    return index & 3


def jokers(cards: int) -> int:
    """Number of jokers in a card set."""
    return cards >> JOKER_SHIFT


def real(cards: int) -> int:
    """The ordinary cards of a card set."""
    return cards & REAL_MASK


def count(cards: int) -> int:
    """Number of cards in a card set, jokers included."""
    return (cards & REAL_MASK).bit_count() + (cards >> JOKER_SHIFT)


def contains(hand: int, cards: int) -> bool:
    """Whether every card of ``cards`` is in ``hand`` (jokers by count).

    >>> contains(parse_cards("S3 JK JK"), parse_cards("JK S3"))
    True
    >>> contains(parse_cards("S3"), parse_cards("JK"))
    False
    """
    return (cards & REAL_MASK) & ~hand == 0 and (cards >> JOKER_SHIFT) <= (hand >> JOKER_SHIFT)


def iter_indices(cards: int) -> Iterator[int]:
    """Bit indices of the ordinary cards, weakest first."""
    bits = cards & REAL_MASK
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def parse_cards(text: str | list[str] | tuple[str, ...], max_jokers: int = 2) -> int:
    """Parse space separated card codes into a card set.

    Raises :class:`CardError` for an unknown code, a repeated ordinary card or
    more jokers than ``max_jokers``.

    >>> format_cards(parse_cards("JK D3 S3"))
    'S3 D3 JK'
    >>> parse_cards("S3 S3")
    Traceback (most recent call last):
    ...
    rules_engine.cards.CardError: card 'S3' given twice
    """
    codes = text.split() if isinstance(text, str) else list(text)
    cards = 0
    for code in codes:
        if code == JOKER:
            if (cards >> JOKER_SHIFT) >= max_jokers:
                raise CardError(f"more than {max_jokers} joker(s)")
            cards += JOKER_UNIT
            continue
        bit = 1 << card_index(code)
        if cards & bit:
            raise CardError(f"card {code!r} given twice")
        cards |= bit
    return cards


def card_codes(cards: int) -> list[str]:
    """Card codes in canonical order (rank, then S H D C, jokers last).

    >>> card_codes(parse_cards("C3 S4 JK S3"))
    ['S3', 'C3', 'S4', 'JK']
    """
    codes = [SUITS[i & 3] + RANKS[i >> 2] for i in iter_indices(cards)]
    codes.extend([JOKER] * (cards >> JOKER_SHIFT))
    return codes


def format_cards(cards: int) -> str:
    """Canonical text of a card set."""
    return " ".join(card_codes(cards))


def full_deck(jokers_in_deck: int) -> int:
    """Every card of a deck with 0, 1 or 2 jokers."""
    return REAL_MASK | (jokers_in_deck << JOKER_SHIFT)


def deck_list(jokers_in_deck: int) -> list[int]:
    """The deck as a list of one-card sets, in canonical order (for dealing)."""
    cards = [1 << i for i in range(JOKER_SHIFT)]
    cards.extend([JOKER_UNIT] * jokers_in_deck)
    return cards


def rank_counts(cards: int) -> list[int]:
    """Number of ordinary cards of each rank."""
    return [((cards >> (4 * r)) & 0xF).bit_count() for r in range(NUM_RANKS)]


def _spread_table() -> list[int]:
    # For one byte of a card set (two ranks), the per-suit rank bits, packed
    # in four 16-bit lanes: lane s holds the ranks held in suit s.
    table = []
    for byte in range(256):
        packed = 0
        for bit in range(8):
            if byte >> bit & 1:
                rank, suit = bit >> 2, bit & 3
                packed |= 1 << (16 * suit + rank)
        table.append(packed)
    return table


_SPREAD = _spread_table()


def suit_lanes(cards: int) -> int:
    """Per-suit rank masks packed in 16-bit lanes: ``(lanes >> 16*s) & 0x1FFF``.

    >>> lanes = suit_lanes(parse_cards("S3 S5 H2"))
    >>> bin(lanes & 0x1FFF), bin((lanes >> 16) & 0x1FFF)
    ('0b101', '0b1000000000000')
    """
    t = _SPREAD
    return (
        t[cards & 0xFF]
        | t[(cards >> 8) & 0xFF] << 2
        | t[(cards >> 16) & 0xFF] << 4
        | t[(cards >> 24) & 0xFF] << 6
        | t[(cards >> 32) & 0xFF] << 8
        | t[(cards >> 40) & 0xFF] << 10
        | t[(cards >> 48) & 0x0F] << 12
    )


def describe_card(index: int) -> str:
    """Symbolic text of an ordinary card, e.g. ``♠10``."""
    rank = RANKS[index >> 2]
    return SUIT_SYMBOLS[index & 3] + ("10" if rank == "T" else rank)
