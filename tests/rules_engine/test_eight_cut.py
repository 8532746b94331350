"""8-cut (RULES.md section 3): which plays cut, and what a cut does."""

import pytest
from engine_testlib import act, field, legal, play, start

from rules_engine.cards import format_cards, parse_cards

HANDS_REST = ["HK DK", "SK CK"]


@pytest.mark.parametrize(
    "mode, lead, cuts",
    [
        ("groups", "S8", True),
        ("groups", "S8 H8", True),
        ("groups", "S8 JK", True),  # the joker fills a group of 8s
        ("groups", "S8 H8 D8", True),
        ("groups", "S6 S7 S8", False),  # a sequence never cuts under groups
        ("groups", "S7 JK S9", False),
        ("groups", "JK", False),
        ("groups", "S9", False),
        ("any", "S8", True),
        ("any", "S8 JK", True),
        ("any", "S6 S7 S8", True),  # a real 8 inside a sequence
        ("any", "S7 JK S9", False),  # a joker standing for the 8 never cuts
        ("any", "S6 S7 JK", False),  # nor at the end of a sequence
        ("any", "JK", False),
        ("off", "S8", False),
        ("off", "S8 H8", False),
        ("off", "S6 S7 S8", False),
    ],
)
def test_which_plays_cut(mode, lead, cuts):
    r = start([lead + " D4", *HANDS_REST], eight_cut=mode)
    r = act(r, lead)
    if cuts:
        assert field(r) is None
        assert r.to_act == 0
        assert legal(r) and "pass" not in legal(r)
    else:
        assert field(r) == format_cards(parse_cards(lead))
        assert r.to_act == 1


def test_a_following_8_cuts_too_and_its_player_leads():
    r = start(["S5 D4", "H8 HA", "SK CK"], eight_cut="groups")
    r = play(r, "S5", "H8")
    assert field(r) is None
    assert r.to_act == 1
    assert r.passed == 0


def test_an_8_cut_ends_11_back():
    r = start(["SJ D4", "H8 HA", "SK CK"], "classic")
    r = play(r, "SJ")
    assert r.jback and r.reversed
    r = play(r, "H8")  # below J: stronger while reversed, and an 8-cut
    assert field(r) is None
    assert not r.jback and not r.reversed
    assert r.to_act == 1


def test_an_8_cut_ends_the_suit_lock():
    r = start(["H5 DK", "H7 SA", "H8 C9 CQ"], "standard")
    r = play(r, "H5", "H7")
    assert r.lock
    r = play(r, "H8")
    assert field(r) is None
    assert r.lock == 0
    assert r.to_act == 2
    r = play(r, "C9")
    assert legal(r) == sorted(["pass", "DK"])


def test_going_out_on_an_8_cut_lets_the_next_player_lead():
    r = start(["S8", "HK DK", "SK CK"], "party")
    r = act(r, "S8")
    assert r.out == (0,)
    assert r.penalised == ()
    assert field(r) is None
    assert r.to_act == 1
