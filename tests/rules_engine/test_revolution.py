"""Revolution (RULES.md section 3): groups of four, long sequences, toggling, joker readings."""

import pytest
from engine_testlib import act, field, legal, play, refusal, start

from rules_engine.cards import RANKS


def span(move):
    return " ".join(RANKS[r] for r in range(move.low, move.high + 1))


@pytest.mark.parametrize(
    "lead, toggles",
    [
        ("S9 H9 D9 C9", True),
        ("S9 H9 D9 JK", True),  # the joker counts toward the four
        ("S9 H9 D9 C9 JK", True),
        ("S9 H9 D9", False),
        ("S9 JK", False),
    ],
)
def test_a_group_of_four_or_more_toggles_revolution(lead, toggles):
    r = start([lead + " D4", "HK", "SK"])
    r = act(r, lead)
    assert r.revolution is toggles
    assert r.reversed is toggles


@pytest.mark.parametrize("group_min, size, toggles", [(3, 3, True), (5, 4, False), (5, 5, True)])
def test_revolution_group_min(group_min, size, toggles):
    lead = " ".join(["S9", "H9", "D9", "C9", "JK"][:size])
    r = start([lead + " D4", "HK", "SK"], revolution_group_min=group_min)
    assert act(r, lead).revolution is toggles


@pytest.mark.parametrize(
    "sequence_min, length, toggles",
    [
        (None, 5, False),
        (None, 6, False),
        (4, 3, False),
        (4, 4, True),
        (4, 5, True),
        (5, 4, False),
        (5, 5, True),
        (5, 6, True),
    ],
)
def test_revolution_sequence_min(sequence_min, length, toggles):
    lead = " ".join(["S4", "S5", "S6", "S7", "S8", "S9"][:length])
    r = start([lead + " D4", "HK", "SK"], revolution_sequence_min=sequence_min)
    assert act(r, lead).revolution is toggles


def test_with_revolution_off_nothing_toggles_it():
    hands = ["S9 H9 D9 C9 S4 S5 S6 S7 S8 D4", "HK", "SK"]
    r = start(hands, revolution=False, revolution_sequence_min=4)
    assert not act(r, "S9 H9 D9 C9").revolution
    assert not act(r, "S4 S5 S6 S7 S8").revolution
    on = start(hands, revolution=True, revolution_sequence_min=4)
    assert act(on, "S9 H9 D9 C9").revolution
    assert act(on, "S4 S5 S6 S7 S8").revolution


def test_revolution_lasts_past_a_clear():
    r = start(["S9 H9 D9 C9 D4 D6", "HA", "SK"])
    r = act(r, "S9 H9 D9 C9")
    assert r.revolution
    r = play(r, "pass", "pass")
    assert field(r) is None and r.to_act == 0
    assert r.revolution
    r = play(r, "D6")
    # in the revolution seat 1's A does not beat a 6
    assert legal(r) == ["pass"]


def test_a_second_revolution_toggles_back():
    r = start(["S9 H9 D9 C9 D4", "S5 H5 D5 C5 HA", "SK"])
    r = act(r, "S9 H9 D9 C9")
    assert r.revolution
    # under the revolution 5 beats 9
    assert "S5 H5 D5 C5" in legal(r)
    r = act(r, "S5 H5 D5 C5")
    assert not r.revolution
    assert not r.reversed


def test_in_a_revolution_lower_groups_are_stronger():
    r = start(["S9 H9 D4", "S5 H5 ST HT", "SK"], in_revolution=True)
    r = act(r, "S9 H9")
    assert legal(r) == sorted(["pass", "S5 H5"])
    assert refusal(r, "ST HT") == "not_stronger"


def test_a_sequence_that_starts_a_revolution_reads_its_joker_by_the_old_order():
    r = start(["S5 S6 S7 S8 JK D4", "HK", "SK"], "standard")
    r = act(r, "S5 S6 S7 S8 JK")
    assert r.revolution
    assert span(r.top) == "5 6 7 8 9"  # the joker at the top, as before the revolution


def test_a_sequence_read_before_a_revolution_is_not_read_again():
    # S7 S8 S9 JK reads 7 8 9 T and starts a revolution (sequences of 4 do here).
    # Read again under the new order it would be 6 7 8 9, and 3 4 5 6 could not beat it.
    r = start(["S7 S8 S9 JK D4", "H3 H4 H5 H6 H7", "SK"], revolution_sequence_min=4)
    r = act(r, "S7 S8 S9 JK")
    assert r.revolution
    assert span(r.top) == "7 8 9 T"
    assert legal(r) == sorted(["pass", "H3 H4 H5 H6"])
    r = act(r, "H3 H4 H5 H6")
    assert field(r) == "H3 H4 H5 H6"
    assert not r.revolution  # a four-card sequence toggled it back


def test_four_8s_under_eight_cut_both_toggle_revolution_and_clear():
    r = start(["S8 H8 D8 C8 D4", "HK", "SK"], eight_cut="groups")
    r = act(r, "S8 H8 D8 C8")
    assert r.revolution
    assert field(r) is None and r.to_act == 0


def test_revolution_is_off_at_the_start_of_a_dealt_round():
    from rules_engine import Round, RuleSet

    for seed in range(5):
        assert not Round.deal(RuleSet.preset("standard"), 4, seed).revolution
