"""Spade-3 return (RULES.md section 3): a single S3 on a lone joker."""

import pytest
from engine_testlib import act, field, legal, play, refusal, start


@pytest.mark.parametrize("in_revolution", [False, True])
def test_the_spade_3_beats_a_lone_joker_and_clears(in_revolution):
    r = start(["JK D4", "S3 H9", "SK CK"], spade3_return=True, in_revolution=in_revolution)
    r = act(r, "JK")
    assert "S3" in legal(r)
    r = act(r, "S3")
    assert field(r) is None
    assert r.to_act == 1
    assert r.passed == 0


def test_under_11_back_too():
    r = start(["SJ D4", "JK H9", "S3 CK"], spade3_return=True, jback="groups")
    r = play(r, "SJ", "JK")
    assert r.reversed
    r = act(r, "S3")
    assert field(r) is None and r.to_act == 2
    assert not r.jback


def test_under_a_suit_lock():
    r = start(["H5 D4", "H7 S9", "JK C8", "S3 CK"], spade3_return=True, suit_lock=True)
    r = play(r, "H5", "H7", "JK")
    assert r.lock
    assert "S3" in legal(r)
    r = act(r, "S3")
    assert field(r) is None and not r.lock
    assert r.to_act == 3


def test_only_the_spade_3_and_only_on_a_lone_joker():
    r = start(["JK D4", "H3 S3 H9", "SK CK"], spade3_return=True)
    r = act(r, "JK")
    assert legal(r) == sorted(["pass", "S3"])
    assert refusal(r, "H3") == "not_stronger"
    r = start(["S5 D4", "H3 S3 H9", "SK CK"], spade3_return=True)
    r = act(r, "S5")
    assert refusal(r, "S3") == "not_stronger"


def test_not_on_a_joker_in_a_group():
    r = start(["S5 JK D4", "S3 H3 H9", "SK CK"], spade3_return=True)
    r = act(r, "S5 JK")
    assert refusal(r, "S3") == "wrong_form"
    r = start(["JK JK D4", "S3 H3 H9", "SK CK"], spade3_return=True, jokers=2)
    r = act(r, "JK JK")
    assert legal(r) == ["pass"]


def test_off_the_spade_3_is_a_plain_3():
    r = start(["JK D4", "S3 H9", "SK CK"], spade3_return=False)
    r = act(r, "JK")
    assert legal(r) == ["pass"]
    assert refusal(r, "S3") == "not_stronger"


def test_going_out_on_a_return_lets_the_next_player_lead():
    r = start(["JK D4", "S3", "SK CK"], spade3_return=True)
    r = play(r, "JK", "S3")
    assert r.out == (1,)
    assert field(r) is None
    assert r.to_act == 2
