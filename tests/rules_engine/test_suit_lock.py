"""Suit lock (RULES.md section 3): compositions, jokers, after 2 or 3, clearing."""

import pytest
from engine_testlib import act, field, legal, play, refusal, start

from rules_engine.scenarios import lock_text


def lock(r):
    return lock_text(r.lock)


def test_two_singles_of_one_suit_lock_it():
    r = start(["H5 S9 D4", "H7 SJ DQ", "HK SK CK"], suit_lock=True)
    r = play(r, "H5")
    assert lock(r) is None
    r = play(r, "H7")
    assert lock(r) == "H"
    assert legal(r) == sorted(["pass", "HK"])
    assert refusal(r, "SK") == "suit_locked"
    assert refusal(r, "CK") == "suit_locked"


def test_suit_locked_comes_before_not_stronger():
    r = start(["H5 S9 D4", "H7 SJ DQ", "H6 S3 CK"], suit_lock=True)
    r = play(r, "H5", "H7")
    assert refusal(r, "S3") == "suit_locked"
    assert refusal(r, "H6") == "not_stronger"


def test_different_suits_do_not_lock():
    r = start(["H5 S9 D4", "S7 SJ DQ", "HK SK CK"], suit_lock=True)
    r = play(r, "H5", "S7")
    assert lock(r) is None
    assert legal(r) == sorted(["pass", "HK", "SK", "CK"])


def test_pairs_lock_on_their_whole_composition():
    r = start(["S5 H5 D4", "S7 H7 DQ", "S9 D9 SK HK", "C3"], suit_lock=True)
    r = play(r, "S5 H5", "S7 H7")
    assert lock(r) == "S H"
    assert legal(r) == sorted(["pass", "SK HK"])
    assert refusal(r, "S9 D9") == "suit_locked"


def test_same_suits_in_another_order_of_pairs_lock():
    r = start(["H5 S5 D4", "S7 H7 DQ", "SK HK", "C3"], suit_lock=True)
    r = play(r, "S5 H5", "S7 H7")
    assert lock(r) == "S H"


def test_a_sequence_has_one_suit_and_locks_it():
    r = start(["D3 D4 D5 C3", "D6 D7 D8 SJ", "H9 HT HJ DT DJ DQ"], suit_lock=True)
    r = play(r, "D3 D4 D5", "D6 D7 D8")
    assert lock(r) == "D"
    assert legal(r) == sorted(["pass", "DT DJ DQ"])


def test_a_joker_is_a_wildcard_when_meeting_a_lock():
    r = start(["H5 S9", "H7 SJ", "JK S4"], suit_lock=True)
    r = play(r, "H5", "H7")
    assert lock(r) == "H"
    assert legal(r) == sorted(["pass", "JK"])
    r = act(r, "JK")
    assert field(r) == "JK"
    assert lock(r) == "H"


def test_a_group_with_a_joker_meets_a_lock_with_its_real_cards():
    r = start(["S5 H5 C4", "S7 H7 CQ", "S9 JK D9 C3"], suit_lock=True, jokers=1)
    r = play(r, "S5 H5", "S7 H7")
    assert lock(r) == "S H"
    assert "S9 JK" in legal(r)
    assert "D9 JK" not in legal(r)
    assert refusal(r, "D9 JK") == "suit_locked"
    assert refusal(r, "S9 D9") == "suit_locked"


def test_a_play_holding_a_joker_never_starts_a_lock():
    r = start(["H5 S4", "JK HK S9", "HQ S3"], suit_lock=True)
    r = play(r, "H5", "JK")
    assert lock(r) is None
    # the joker could stand for H7, but a play holding a joker has no composition
    r = start(["S5 H5 D3", "S7 JK C4", "S9 H9 CA"], suit_lock=True)
    r = play(r, "S5 H5", "S7 JK")
    assert lock(r) is None
    assert "S9 H9" in legal(r)


def test_the_play_after_a_joker_cannot_lock_against_it():
    r = start(["S5 H5 D3", "S7 JK C4", "S9 H9 CA", "SK HK D4"], suit_lock=True)
    r = play(r, "S5 H5", "S7 JK", "S9 H9")
    assert lock(r) is None
    r = play(r, "SK HK")
    assert lock(r) == "S H"


@pytest.mark.parametrize("after, locked_after_two", [(2, True), (3, False)])
def test_suit_lock_after(after, locked_after_two):
    r = start(["H5 S9 D4", "H7 SJ DQ", "H9 SK CK"], suit_lock=True, suit_lock_after=after)
    r = play(r, "H5", "H7")
    assert (lock(r) == "H") is locked_after_two
    r = play(r, "H9")
    assert lock(r) == "H"


def test_passes_do_not_break_the_run():
    r = start(["H5 S9 D4", "SJ DQ", "H9 SK CK"], suit_lock=True)
    r = play(r, "H5", "pass", "H9")
    assert lock(r) == "H"


def test_the_lock_ends_when_the_field_clears():
    r = start(["H5 S9 D4", "H7 SJ DQ", "HK SK CK"], suit_lock=True)
    r = play(r, "H5", "H7", "pass", "pass")
    assert field(r) is None
    assert lock(r) is None
    assert r.to_act == 1
    r = play(r, "SJ")
    assert legal(r) == sorted(["pass", "SK", "CK", "HK"])


def test_without_suit_lock_nothing_locks():
    r = start(["H5 S9 D4", "H7 SJ DQ", "HK SK CK"], suit_lock=False)
    r = play(r, "H5", "H7")
    assert lock(r) is None
    assert legal(r) == sorted(["pass", "HK", "SK", "CK"])
