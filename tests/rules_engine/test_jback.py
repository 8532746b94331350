"""11-back (RULES.md section 3): which plays toggle it, how long it lasts."""

import pytest
from engine_testlib import act, field, legal, play, refusal, start


@pytest.mark.parametrize(
    "mode, lead, toggles",
    [
        ("groups", "SJ", True),
        ("groups", "SJ HJ", True),
        ("groups", "SJ JK", True),  # the joker fills a group of Js
        ("groups", "S9 ST SJ", False),  # a sequence does not, under groups
        ("groups", "ST JK SQ", False),
        ("groups", "JK", False),
        ("any", "SJ", True),
        ("any", "SJ JK", True),
        ("any", "S9 ST SJ", True),  # a real J inside a sequence
        ("any", "ST JK SQ", False),  # a joker standing for the J does not
        ("any", "S9 ST JK", False),
        ("off", "SJ", False),
        ("off", "SJ HJ", False),
        ("off", "S9 ST SJ", False),
    ],
)
def test_which_plays_toggle_11_back(mode, lead, toggles):
    r = start([lead + " D4", "HK DK", "SK CK"], jback=mode)
    r = act(r, lead)
    assert r.jback is toggles
    assert r.reversed is toggles
    assert not r.revolution


def test_11_back_reverses_the_order_until_the_field_clears():
    r = start(["SJ D5", "HT HQ", "ST SQ"], jback="groups")
    r = act(r, "SJ")
    assert legal(r) == sorted(["pass", "HT"])
    assert refusal(r, "HQ") == "not_stronger"
    r = play(r, "pass", "pass")
    assert field(r) is None
    assert not r.jback
    assert not r.reversed
    r = play(r, "D5")
    assert legal(r) == sorted(["pass", "HT", "HQ"])


def test_the_j_play_itself_is_judged_under_the_order_before_it():
    # normal order: J beats T
    r = start(["ST D5", "HJ H9", "SK"], jback="groups")
    r = act(r, "ST")
    assert "HJ" in legal(r)
    r = act(r, "HJ")
    assert r.jback
    # during a revolution a J does not beat a T, whatever it would do after
    r = start(["ST D5", "HJ H9", "SK"], jback="groups", in_revolution=True)
    r = act(r, "ST")
    assert refusal(r, "HJ") == "not_stronger"
    assert legal(r) == sorted(["pass", "H9"])


def test_11_back_during_a_revolution_restores_the_normal_order():
    r = start(["SJ D5", "HT HQ", "SK"], jback="groups", in_revolution=True)
    r = act(r, "SJ")
    assert r.revolution and r.jback
    assert not r.reversed
    assert legal(r) == sorted(["pass", "HQ"])


def test_11_back_does_not_survive_a_clear_by_passes_into_the_next_trick():
    r = start(["SJ D5 D3", "HT HQ", "SK CK"], jback="any")
    r = play(r, "SJ", "pass", "pass")
    assert r.to_act == 0 and not r.jback


def test_jacks_and_a_revolution_in_one_play_cancel_out():
    r = start(["SJ HJ DJ CJ D4", "HK", "SK"], jback="any")
    r = act(r, "SJ HJ DJ CJ")
    assert r.revolution and r.jback
    assert not r.reversed
