"""Passing and clearing the field (RULES.md section 2), with and without pass_until_clear."""

import pytest
from engine_testlib import act, field, legal, play, refusal, start

FOUR = ["S5 S6 D3", "H7 H9 DK", "C8 CT CA", "D9 DJ D2"]


def test_the_leader_may_not_pass():
    r = start(FOUR)
    assert refusal(r, "pass") == "leader_cannot_pass"
    assert "pass" not in legal(r)


def test_a_follower_may_pass():
    r = play(start(FOUR), "S5")
    assert "pass" in legal(r)
    assert act(r, "pass").to_act == 2


@pytest.mark.parametrize("pass_until_clear", [False, True])
def test_the_field_clears_when_every_other_player_has_passed(pass_until_clear):
    r = start(FOUR, pass_until_clear=pass_until_clear)
    r = play(r, "S5", "pass", "pass")
    assert field(r) == "S5"
    assert r.to_act == 3
    r = act(r, "pass")
    assert field(r) is None
    assert r.to_act == 0
    assert r.passed == 0


def test_turn_order_wraps():
    r = play(start(FOUR), "S5", "H7", "C8", "D9")
    assert r.to_act == 0


def test_without_pass_until_clear_a_passed_player_plays_again():
    r = start(FOUR)
    r = play(r, "S5", "pass", "C8", "pass", "pass")
    # seat 1 passed on the 5 but may answer the 8
    assert r.to_act == 1
    assert legal(r) == sorted(["pass", "H9", "DK"])
    r = play(r, "H9")
    assert field(r) == "H9"


def test_without_pass_until_clear_passes_count_since_the_last_play():
    r = start(FOUR)
    r = play(r, "S5", "pass", "C8", "pass", "pass", "pass")
    # seats 3, 0 and 1 passed on the 8: seat 2 leads
    assert field(r) is None
    assert r.to_act == 2


def test_with_pass_until_clear_a_passed_player_is_skipped():
    r = start(FOUR, pass_until_clear=True)
    r = play(r, "S5", "pass", "C8")
    assert r.to_act == 3
    r = play(r, "D9")
    assert r.to_act == 0  # seat 1 is skipped next time round
    r = play(r, "pass")
    assert r.to_act == 2
    assert refusal(r, "H9", seat=1) == "passed_until_clear"
    assert refusal(r, "pass", seat=1) == "passed_until_clear"
    assert refusal(r, "CA", seat=3) == "not_your_turn"
    r = play(r, "CA", "pass")
    # seats 0, 1 and 3 have all passed: the field clears and seat 2 leads
    assert field(r) is None
    assert r.to_act == 2
    assert r.passed == 0


def test_passed_until_clear_comes_before_not_your_turn():
    r = play(start(FOUR, pass_until_clear=True), "S5", "pass")
    assert refusal(r, "H9", seat=1) == "passed_until_clear"
    r = play(start(FOUR, pass_until_clear=False), "S5", "pass")
    assert refusal(r, "H9", seat=1) == "not_your_turn"


def test_the_pass_ends_at_the_clear():
    r = start(FOUR, pass_until_clear=True)
    r = play(r, "S5", "pass", "pass", "pass")
    assert r.to_act == 0
    r = play(r, "S6")
    assert r.to_act == 1
    assert "H7" in legal(r)


def test_acting_out_of_turn_is_refused():
    r = play(start(FOUR), "S5")
    assert refusal(r, "C8", seat=2) == "not_your_turn"
    assert refusal(r, "pass", seat=0) == "not_your_turn"
    assert refusal(r, "S2", seat=2) == "not_your_turn"  # before not_in_hand
    assert refusal(r, "C8", seat=7) == "not_your_turn"
    assert act(r, "H7").to_act == 2


# -- who leads after a clear -------------------------------------------------------------------


@pytest.mark.parametrize("pass_until_clear", [False, True])
def test_when_the_last_player_has_gone_out_the_next_player_leads(pass_until_clear):
    r = start(["S5", "H7 H9", "C8 CT", "D9 DJ"], pass_until_clear=pass_until_clear)
    r = act(r, "S5")
    assert r.out == (0,)
    assert r.to_act == 1
    r = play(r, "pass", "pass")
    assert field(r) == "S5"
    r = act(r, "pass")
    assert field(r) is None
    assert r.to_act == 1


def test_the_player_who_made_the_last_play_leads():
    r = start(["S4 S5", "H3 H6", "C8 CT", "D9 DJ"])
    r = play(r, "S4", "pass", "C8", "D9", "pass", "pass", "pass")
    assert field(r) is None
    assert r.to_act == 3


def test_when_the_last_player_went_out_on_a_follow_the_next_seat_leads():
    r = start(["S5", "H3 H4", "C8 CT", "D3 DJ"], leader=3)
    r = play(r, "D3", "S5")  # seat 0 goes out on the 5
    assert r.out == (0,)
    r = play(r, "pass", "pass", "pass")  # seats 1, 2, 3
    assert field(r) is None
    assert r.to_act == 1


def test_going_out_then_everyone_passes_skips_a_seat_that_is_out():
    # seat 1 is already out; seat 0 goes out; seats 2 and 3 pass: seat 2 leads
    r = start(["H3 DA", "S5", "C8 CT", "D9 DJ"], leader=0)
    r = play(r, "H3", "S5", "C8", "D9")
    r = play(r, "DA")
    assert r.out == (1, 0)
    r = play(r, "pass", "pass")
    assert field(r) is None
    assert r.to_act == 2


def test_pass_until_clear_clears_at_once_when_nobody_can_answer():
    # seat 0 goes out, seat 1 passes, seat 2 plays: everyone else still holding
    # cards (seat 1) has passed, so the field clears and seat 2 leads again.
    r = start(["S5", "H3 H4", "C8 CT"], pass_until_clear=True)
    r = play(r, "S5", "pass", "C8")
    assert field(r) is None
    assert r.to_act == 2


def test_without_pass_until_clear_the_passed_player_may_answer():
    r = start(["S5", "H3 HK", "C8 CT"], pass_until_clear=False)
    r = play(r, "S5", "pass", "C8")
    assert field(r) == "C8"
    assert r.to_act == 1
    assert legal(r) == sorted(["pass", "HK"])
