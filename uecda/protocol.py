"""The UECda protocol's tables (version 20070): 8 x 15 ints in network byte order.

Rows 0..3 are the suits S H D C, columns 1..13 the ranks 3 4 ... K A 2 (columns 0 and 14
lie beyond them, where a joker may stand); a 1 is a card, a 2 a joker standing there,
row 4 a joker held (``[4][1]``) or standing in for a fifth card. Rows 5 and 6 carry the
state: ``[5][0..1]`` the exchange (``[5][1]`` cards to give), ``[5][2]`` "your turn",
``[5][3]`` whose turn (player number), ``[5][4]`` field empty, ``[5][5]`` 11-back,
``[5][6]`` revolution, ``[5][7]`` suit lock, ``[6][0..4]`` card counts, ``[6][5..9]``
classes (0 daifugo .. 4 daihinmin), ``[6][10..14]`` the seat order by player number.

>>> from rules_engine.cards import parse_cards, format_cards
>>> t = cards_table(parse_cards("S3 C2 JK"))
>>> t[0][1], t[3][13], t[4][1]
(1, 1, 2)
>>> format_cards(table_cards(t))
'S3 C2 JK'
>>> table_cards(unpack(pack(t))) == parse_cards("S3 C2 JK")
True
"""

from __future__ import annotations

import struct

from rules_engine.cards import JOKER_SHIFT, JOKER_UNIT, REAL_MASK
from rules_engine.moves import GROUP, SEQUENCE, SINGLE, Move, analyse

PROTOCOL_VERSION = 20070
DEFAULT_PORT = 42485
ROWS, COLUMNS = 8, 15
TABLE_BYTES = ROWS * COLUMNS * 4
#: Answers to a submitted play.
ACCEPTED, REJECTED = 9, 8
#: End-of-play flags after each turn.
GAME_GOES_ON, GAME_OVER, ALL_OVER = 0, 1, 2
NAME_LENGTH = 15

Table = list[list[int]]
_FORMAT = f"!{ROWS * COLUMNS}i"


class ProtocolError(ValueError):
    """A table that breaks the protocol (wrong size, a value out of range)."""


def empty() -> Table:
    return [[0] * COLUMNS for _ in range(ROWS)]


def pack(table: Table) -> bytes:
    """A table as the 480 bytes sent on the wire."""
    if len(table) != ROWS or any(len(row) != COLUMNS for row in table):
        raise ProtocolError("a table is 8 rows of 15 ints")
    return struct.pack(_FORMAT, *(v for row in table for v in row))


def unpack(data: bytes) -> Table:
    """The table in 480 bytes from the wire."""
    if len(data) != TABLE_BYTES:
        raise ProtocolError(f"a table is {TABLE_BYTES} bytes, not {len(data)}")
    values = struct.unpack(_FORMAT, data)
    return [list(values[r * COLUMNS : (r + 1) * COLUMNS]) for r in range(ROWS)]


def profile_table(name: str) -> Table:
    """The first table a client sends: the protocol version and its name (15 chars)."""
    table = empty()
    table[0][0] = PROTOCOL_VERSION
    for i, ch in enumerate(name.encode("ascii", "replace")[:NAME_LENGTH]):
        table[1][i] = ch
    return table


def table_name(table: Table) -> str:
    return bytes(v for v in table[1] if 0 < v < 128).decode("ascii")


def cards_table(cards: int) -> Table:
    """A hand as a table: each card a 1, a joker held as ``[4][1] = 2``."""
    table = empty()
    real = cards & REAL_MASK
    while real:
        low = real & -real
        index = low.bit_length() - 1
        table[index & 3][(index >> 2) + 1] = 1
        real ^= low
    if cards >> JOKER_SHIFT:
        table[4][1] = 2
    return table


def table_cards(table: Table) -> int:
    """The cards of a table's rows 0..4: a 1 in rows 0..3 is a card (columns 1..13),
    any 2, and anything in row 4, a joker."""
    cards = 0
    jokers = 0
    for row in range(4):
        for col in range(COLUMNS):
            value = table[row][col]
            if value == 1 and 1 <= col <= 13:
                cards |= 1 << (4 * (col - 1) + row)
            elif value == 1 or value == 2:
                jokers += 1
            elif value:
                raise ProtocolError(f"cell [{row}][{col}] holds {value}")
    jokers += sum(1 for col in range(COLUMNS) if table[4][col])
    if jokers > 2:
        raise ProtocolError("more than two jokers")
    return cards + jokers * JOKER_UNIT


def table_suits(table: Table) -> int:
    """The suits a played table's cards stand in (jokers included), as a bit set."""
    suits = 0
    for row in range(4):
        if any(table[row]):
            suits |= 1 << row
    return suits


def table_move(table: Table, reversed_order: bool) -> Move | None:
    """The play a stage table shows (``None`` when it shows none or no combination).

    A joker in a group carries the suit it stands in (``joker_suit``), so the move's
    suits are those the table shows. A sequence's jokers stand where the table puts
    them (the player chose: past the 2, below the 3 or inside), so its reading is taken
    from the table's columns rather than the engine's favourable one.
    """
    cards = table_cards(table)
    if not cards:
        return None
    move = analyse(cards, None, reversed_order, 3, beyond=True)
    if move is None:
        return None
    suits = table_suits(table)
    if move.form == GROUP and move.jokers and move.cards & REAL_MASK and suits != move.suits:
        move = with_suits(move, suits)
    if move.form == SEQUENCE and move.jokers:
        columns = [col for row in range(4) for col in range(COLUMNS) if table[row][col] in (1, 2)]
        low, high = min(columns) - 1, max(columns) - 1
        if high - low + 1 == move.size and (low, high) != (move.low, move.high):
            move = Move(move.cards, SEQUENCE, low, low, high, None, move.ambiguous)
    return move


def with_suits(move: Move, suits: int) -> Move:
    """A copy of ``move`` (equal to it) whose suit composition is ``suits``."""
    copy = Move(
        move.cards, move.form, move.rank, move.low, move.high, move.reversed, move.ambiguous
    )
    copy.suits = suits
    return copy


def move_table(move: Move, composed_suits: int, field: Move | None, reversed_order: bool) -> Table:
    """The table a client sends for ``move`` (an empty table is a pass).

    ``composed_suits``: the suits the engine's ``joker_suit`` reading gives the play
    (``rules_engine.state.with_joker_suits``); a group's joker is placed in one of them.
    A lone joker stands beyond the 2 (below the 3 in reverse), in a suit other than the
    field's, as the tournament's clients do.
    """
    table = empty()
    if move.is_pass:
        return table
    real = move.cards & REAL_MASK
    bits = real
    while bits:
        low = bits & -bits
        index = low.bit_length() - 1
        table[index & 3][(index >> 2) + 1] = 1
        bits ^= low
    jokers = move.jokers
    if not jokers:
        return table
    if move.form == SINGLE or not real:
        row = 0
        if field is not None and field.suits & 1:
            row = 1
        table[row][0 if reversed_order else 14] = 2
        if jokers == 2:
            table[4][1] = 2
        return table
    col = move.rank + 1
    if move.form == GROUP:
        for s in range(4):
            if jokers and (composed_suits >> s) & 1 and not table[s][col]:
                table[s][col] = 2
                jokers -= 1
        if jokers:
            table[4][col] = 2
        return table
    if move.form == SEQUENCE:
        suit = (move.suits & -move.suits).bit_length() - 1
        for rank in range(move.low, move.high + 1):
            if jokers and not table[suit][rank + 1]:
                table[suit][rank + 1] = 2
                jokers -= 1
    return table
