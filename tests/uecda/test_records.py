"""UECda game records: read, replayed through the engine move by move, and refused
(never guessed at) when an action is not legal."""

from __future__ import annotations

import pytest

from rules_engine.cards import parse_cards
from rules_engine.moves import GROUP, SEQUENCE, Move
from uecda.records import RecordError, read_records, replay

# A short 5-player game written for these tests: seat 0 holds the diamond 3 and leads.
GAME = """player a b c d e
/*
game 7
score
class 2 0 1 4 3
seat 1 2 3 4 0
dealt { } { } { } { } { }
changed { } { } { } { } { }
original { s7 s8 } { c9 h9 jo } { h5 h6 } { c6 d6 } { d3 s4 }
play d-3[120] s-7[50] c-9[30] p[20] p[20] p[20] p[20] p[9] ch-9(c)[80]
result 4 2 0 3 1
*/
"""


def test_a_record_is_read_by_seat() -> None:
    (game,) = read_records(GAME)
    assert game.index == 7
    # Player 4 sits in seat 0 (the seat line gives each player's seat).
    assert game.players == (4, 0, 1, 2, 3)
    assert game.hands[0] == parse_cards("D3 S4")
    assert game.hands[2] == parse_cards("C9 H9 JK")
    assert game.classes == (3, 2, 0, 1, 4)
    assert game.actions[:4] == ("d-3", "s-7", "c-9", "p")


def test_every_action_is_replayed_as_a_legal_move() -> None:
    (game,) = read_records(GAME)
    decisions = list(replay(game))
    assert len(decisions) == len(game.actions)
    seats = [r.to_act for r, _ in decisions]
    # UECda: when the others have passed, the turn comes back to the field's owner.
    assert seats == [0, 1, 2, 3, 4, 0, 1, 2, 2]
    moves = [m for _, m in decisions]
    assert str(moves[0]) == "D3"
    # "ch-9(c)": the joker stands for the club nine beside the heart nine.
    pair = moves[8]
    assert pair.form == GROUP
    assert pair.cards == parse_cards("H9 JK")
    for r, m in decisions:
        assert m in r.legal_moves()


def _last_move(first_hand: str, play: str) -> Move:
    """The last move of a one-game record where seat 0 holds ``first_hand`` and the others
    a four each, read and replayed."""
    text = f"""/*
game 0
class 0 1 2 3 4
seat 0 1 2 3 4
original {{ {first_hand} }} {{ s4 }} {{ c4 }} {{ d4 }} {{ h4 }}
play {play}
result 0 1 2 3 4
*/"""
    return list(replay(read_records(text)[0]))[-1][1]


def test_a_joker_in_a_sequence_is_read() -> None:
    move = _last_move("d3 h5 h7 jo", "h-567(6)")
    assert move.form == SEQUENCE
    assert move.cards == parse_cards("H5 H7 JK")


def test_four_of_a_rank_and_the_joker_are_read() -> None:
    # As the server writes them: the joker as a fifth suit x, all five named in brackets.
    move = _last_move("d3 ck dk hk sk jo", "d-3 p p p p p cdhsx-k(cdhsx)")
    assert move.form == GROUP
    assert move.cards == parse_cards("CK DK HK SK JK")


def test_an_illegal_action_is_refused_not_guessed() -> None:
    broken = GAME.replace("d-3[120] s-7[50]", "d-3[120] s-3[50]")
    (game,) = read_records(broken)
    with pytest.raises(RecordError, match="not legal"):
        list(replay(game))


def test_an_unreadable_action_is_refused() -> None:
    broken = GAME.replace("s-7[50]", "x-7[50]")
    with pytest.raises(RecordError, match="unreadable"):
        list(replay(read_records(broken)[0]))
