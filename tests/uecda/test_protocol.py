"""The UECda tables, cell by cell (rows S H D C, columns 3..2 at 1..13)."""

import pytest

from rules_engine.cards import parse_cards
from rules_engine.moves import PASS, analyse
from uecda import protocol as P


def move(text):
    return analyse(parse_cards(text), None, False, 3)


def cells(table):
    return {(r, c): v for r in range(5) for c in range(15) if (v := table[r][c])}


def test_wire_format_is_480_bytes_in_network_order():
    t = P.empty()
    t[0][0] = P.PROTOCOL_VERSION
    data = P.pack(t)
    assert len(data) == 480 and data[:4] == (20070).to_bytes(4, "big")
    assert P.unpack(data) == t
    with pytest.raises(P.ProtocolError):
        P.unpack(data[:-1])


def test_profile_holds_version_and_name():
    t = P.profile_table("advanced-client-long")
    assert t[0][0] == 20070 and P.table_name(t) == "advanced-client"


def test_a_pair_with_a_joker_puts_the_joker_in_the_suit_it_takes():
    t = P.move_table(move("S5 JK"), 0b0011, move("S4 H4"), False)
    assert cells(t) == {(0, 3): 1, (1, 3): 2}
    assert str(P.table_move(t, False)) == "S5 JK"
    assert P.table_move(t, False).suits == 0b0011


def test_a_sequence_joker_fills_its_gap_in_the_sequence_suit():
    t = P.move_table(move("H6 JK H8"), 0b0010, None, False)
    assert cells(t) == {(1, 4): 1, (1, 5): 2, (1, 6): 1}


def test_a_lone_joker_stands_beyond_the_two_or_below_the_three_in_reverse():
    assert cells(P.move_table(move("JK"), 0, None, False)) == {(0, 14): 2}
    assert cells(P.move_table(move("JK"), 0, move("S9"), True)) == {(1, 0): 2}
    assert str(P.table_move(P.move_table(move("JK"), 0, None, False), False)) == "JK"


def test_a_pass_is_an_empty_table_and_a_hand_keeps_its_joker_in_row_4():
    assert cells(P.move_table(PASS, 0, None, False)) == {}
    assert cells(P.cards_table(parse_cards("D3 JK"))) == {(2, 1): 1, (4, 1): 2}


def test_a_bad_cell_is_a_protocol_error():
    t = P.empty()
    t[0][1] = 7
    with pytest.raises(P.ProtocolError):
        P.table_cards(t)


def beyond(text, reversed_order=False):
    return analyse(parse_cards(text), None, reversed_order, 3, beyond=True)


def test_a_sequence_joker_past_the_two_or_below_the_three_goes_to_column_14_or_0():
    # joker_beyond_ends (the uecda preset): A 2 and a joker read A 2 and one above the 2.
    top = beyond("HA H2 JK")
    assert (top.low, top.high) == (11, 13)
    assert cells(P.move_table(top, 0b0010, None, False)) == {(1, 12): 1, (1, 13): 1, (1, 14): 2}
    low = beyond("D3 D4 JK", reversed_order=True)
    assert (low.low, low.high) == (-1, 1)
    assert cells(P.move_table(low, 0b0100, None, True)) == {(2, 0): 2, (2, 1): 1, (2, 2): 1}


@pytest.mark.parametrize(
    ("placed", "reading"),
    [
        ({(0, 0): 2, (0, 1): 1, (0, 2): 1}, (-1, 1)),  # joker below the 3, in the normal order
        ({(0, 1): 1, (0, 2): 1, (0, 3): 2}, (0, 2)),  # joker as the 5
        ({(0, 11): 2, (0, 12): 1, (0, 13): 1}, (10, 12)),  # joker as the K
        ({(0, 12): 1, (0, 13): 1, (0, 14): 2}, (11, 13)),  # joker past the 2
    ],
)
def test_an_opponents_sequence_is_read_where_its_joker_stands(placed, reading):
    # The player chose the joker's place; the field is what the server judges by, not the
    # engine's favourable reading of the same cards.
    t = P.empty()
    for (row, col), value in placed.items():
        t[row][col] = value
    seen = P.table_move(t, False)
    assert seen.form_name == "sequence" and (seen.low, seen.high) == reading
