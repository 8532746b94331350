"""Number lock (RULES.md section 3): one rank above locks, each next play one rank above."""

import pytest
from engine_testlib import act, legal, play, refusal, start


def test_one_rank_above_locks_and_each_next_play_is_one_rank_above():
    r = start(["S5 D8 D3", "H6 H8 HA", "S7 C8 CK"], number_lock=True)
    r = play(r, "S5", "H6")
    assert r.nlock
    assert legal(r) == sorted(["pass", "S7"])
    assert refusal(r, "CK") == "number_locked"
    r = act(r, "S7")
    assert legal(r) == sorted(["pass", "D8"])
    r = act(r, "D8")
    assert r.nlock


def test_more_than_one_rank_above_does_not_lock():
    r = start(["S5 D8 D3", "H7 HA", "S9 CK"], number_lock=True)
    r = play(r, "S5", "H7")
    assert not r.nlock
    assert legal(r) == sorted(["pass", "S9", "CK"])


def test_number_lock_holds_for_groups():
    r = start(["S5 H5 D3", "S6 H6 DK", "S7 C7 S9 C9 CK"], number_lock=True)
    r = play(r, "S5 H5", "S6 H6")
    assert r.nlock
    assert legal(r) == sorted(["pass", "S7 C7"])
    assert refusal(r, "S9 C9") == "number_locked"


def test_a_joker_filled_group_has_its_rank():
    r = start(["S5 H5 D3", "S6 JK DK", "S7 C7 S9 C9 CK"], number_lock=True)
    r = play(r, "S5 H5", "S6 JK")
    assert r.nlock
    assert legal(r) == sorted(["pass", "S7 C7"])


def test_number_lock_uses_the_current_order():
    r = start(["S7 D3", "H6 H5 HK", "S5 C4 CK"], number_lock=True, in_revolution=True)
    r = play(r, "S7", "H6")
    assert r.nlock
    assert legal(r) == sorted(["pass", "S5"])
    assert refusal(r, "C4") == "number_locked"


def test_a_lone_joker_never_starts_a_number_lock_and_is_barred_by_one():
    r = start(["S5 D3", "JK HK", "S6 CK"], number_lock=True)
    r = play(r, "S5", "JK")
    assert not r.nlock
    r = start(["S5 D3", "H6 HK", "JK S7 CK"], number_lock=True)
    r = play(r, "S5", "H6")
    assert r.nlock
    assert "JK" not in legal(r)
    assert refusal(r, "JK") == "number_locked"


def test_an_all_joker_group_is_barred_by_a_number_lock():
    r = start(["S5 H5 D3", "S6 H6 DK", "JK JK S9"], number_lock=True, jokers=2)
    r = play(r, "S5 H5", "S6 H6")
    assert legal(r) == ["pass"]
    assert refusal(r, "JK JK") == "number_locked"


def test_nothing_is_one_rank_above_2():
    r = start(["SA D3", "H2 HK", "JK S7 C3"], number_lock=True)
    r = play(r, "SA", "H2")
    assert r.nlock
    assert legal(r) == ["pass"]


def test_sequences_never_number_lock():
    r = start(["S3 S4 S5 D9", "H6 H7 H8 DK", "CK"], number_lock=True)
    r = play(r, "S3 S4 S5", "H6 H7 H8")
    assert not r.nlock


def test_the_number_lock_ends_when_the_field_clears():
    r = start(["S5 D8 D3", "H6 H8 HA", "ST C8 CK"], number_lock=True)
    r = play(r, "S5", "H6", "pass", "pass")
    assert r.to_act == 1
    assert not r.nlock
    r = play(r, "H8")
    assert legal(r) == sorted(["pass", "ST", "CK"])


def test_suit_lock_comes_before_number_lock():
    r = start(["H5 D3", "H6 HK", "S7 CK"], number_lock=True, suit_lock=True)
    r = play(r, "H5", "H6")
    assert r.nlock and r.lock
    assert refusal(r, "S7") == "suit_locked"


@pytest.mark.parametrize("on", [True, False])
def test_number_lock_is_an_option(on):
    r = start(["S5 D3", "H6 HK", "S9 CK"], number_lock=on)
    r = play(r, "S5", "H6")
    assert r.nlock is on
    assert ("S9" in legal(r)) is not on


def test_number_locked_comes_before_not_stronger():
    r = start(["S5 D3", "H6 HK", "S4 S7 CK"], number_lock=True)
    r = play(r, "S5", "H6")
    assert refusal(r, "S4") == "number_locked"  # weaker, and not one above
    assert refusal(r, "CK") == "number_locked"  # stronger, but not one above


def test_one_above_follows_the_order_that_11_back_sets():
    # 9, then T locks; J is one above T and turns on 11-back; in the reversed
    # order one above J is T again.
    r = start(["S9 D3", "HT HQ", "SJ ST CQ"], number_lock=True, jback="groups")
    r = play(r, "S9", "HT")
    assert r.nlock
    r = play(r, "SJ")
    assert r.jback and r.reversed
    assert legal(r) == ["pass"]  # seat 0 holds only D3: not one above J here
    r = play(r, "pass")
    assert legal(r) == ["pass"]  # HQ is not one above J in the reversed order
