"""What an action did, as the engine records it (``Round.effects``) and ``Round.places()``."""

import random

import pytest
from engine_testlib import ALL_PRESETS, act, play, random_match, start

from rules_engine import Round, RuleSet, observe, round_from_observation
from rules_engine import effects as fx
from rules_engine.cards import parse_cards
from rules_engine.effects import CLEAR_REASONS, KINDS, Effect, effect_json, visible_to


def kinds(r: Round) -> list[str]:
    return [e.kind for e in r.effects]


def one(r: Round, kind: str) -> Effect:
    found = [e for e in r.effects if e.kind == kind]
    assert len(found) == 1, (kind, r.effects)
    return found[0]


def test_a_play_records_who_played_what():
    r = act(start(["S5 H9", "SK", "C4"]), "S5")
    assert kinds(r) == [fx.PLAYED]
    assert r.effects[0].seat == 0 and str(r.effects[0].move) == "S5"


def test_a_pass_records_who_passed():
    r = act(start(["S5 H9", "SK D4", "C4 C6"]), "S5")
    r = act(r, "pass")
    assert kinds(r) == [fx.PASSED] and r.effects[0].seat == 1


def test_everyone_passing_clears_the_field_for_the_last_player():
    r = play(start(["S5 H9", "SK D4", "C4 C6"]), "S5", "pass", "pass")
    assert kinds(r) == [fx.PASSED, fx.CLEARED]
    cleared = one(r, fx.CLEARED)
    assert cleared.reason == "all_passed" and cleared.seat == 0 == r.to_act


def test_an_eight_cut_is_recorded_with_its_clear():
    r = act(start(["S8 H9", "SK", "C4"], "standard"), "S8")
    assert kinds(r) == [fx.PLAYED, fx.EIGHT_CUT, fx.CLEARED]
    assert one(r, fx.EIGHT_CUT).seat == 0
    assert one(r, fx.CLEARED).reason == "eight_cut" and one(r, fx.CLEARED).seat == 0


def test_an_eight_without_the_eight_cut_rule_cuts_nothing():
    r = act(start(["S8 H9", "SK", "C4"], "basic"), "S8")
    assert kinds(r) == [fx.PLAYED]


def test_the_spade3_return_is_recorded_with_its_clear():
    r = play(start(["JK H9", "S3 D4", "C4 C5"], "standard"), "JK", "S3")
    assert kinds(r) == [fx.PLAYED, fx.SPADE3_RETURN, fx.CLEARED]
    assert one(r, fx.CLEARED).reason == "spade3" and one(r, fx.CLEARED).seat == 1


def test_revolution_on_and_off():
    r = act(start(["S5 H5 D5 C5 H9", "SK", "C4"]), "S5 H5 D5 C5")
    assert one(r, fx.REVOLUTION).on is True
    r = act(start(["S5 H5 D5 C5 H9", "SK", "C4"], in_revolution=True), "S5 H5 D5 C5")
    assert one(r, fx.REVOLUTION).on is False and r.revolution is False


def test_eleven_back_on_off_by_a_second_jack_and_ending_with_the_field():
    hands = ["SJ D3 D4", "HJ C3 C4", "H5 H6 H7"]
    r = act(start(hands, "basic", jback="groups"), "SJ")
    assert (one(r, fx.JBACK).on, one(r, fx.JBACK).reason) == (True, "played")
    # under 11-back a weaker J cannot beat a J: a second J is not stronger, so it ends by
    # the field clearing
    r = play(r, "pass", "pass")
    assert kinds(r) == [fx.PASSED, fx.CLEARED, fx.JBACK]
    assert (one(r, fx.JBACK).on, one(r, fx.JBACK).reason) == (False, "cleared")
    assert r.jback is False


def test_eleven_back_toggled_off_by_another_jack():
    # a 4-card sequence with a J starts a revolution and 11-back at once (normal order
    # again); a stronger one with a J toggles both back
    rules = dict(jback="any", revolution_sequence_min=4, sequence_beats="above_bottom")
    hands = ["S9 ST SJ SQ D3", "HT HJ HQ HK C3", "C4 C5"]
    r = act(start(hands, "basic", **rules), "S9 ST SJ SQ")
    assert (one(r, fx.REVOLUTION).on, one(r, fx.JBACK).on) == (True, True)
    r = act(r, "HT HJ HQ HK")
    assert (one(r, fx.REVOLUTION).on, one(r, fx.JBACK).on, one(r, fx.JBACK).reason) == (
        False,
        False,
        "played",
    )


def test_a_jack_that_clears_the_field_at_once_reports_no_eleven_back():
    # party: 8-cut any and 11-back any; S7 S8 S9 ST SJ is a cut and a J at once
    r = act(start(["S7 S8 S9 ST SJ H4", "HK", "C4"], "party"), "S7 S8 S9 ST SJ")
    assert fx.JBACK not in kinds(r) and fx.SUIT_LOCK not in kinds(r)
    assert one(r, fx.CLEARED).reason == "eight_cut"


def test_a_suit_lock_records_its_suits():
    r = play(start(["S5 H9 D4", "S7 D5", "C4 C6"], "standard"), "S5", "S7")
    lock = one(r, fx.SUIT_LOCK)
    assert lock.suits == 1 == r.lock  # spades


def test_a_number_lock_is_recorded():
    r = play(start(["S5 H9 D4", "H6 D5", "C4 C6"], "basic", number_lock=True), "S5", "H6")
    assert kinds(r) == [fx.PLAYED, fx.NUMBER_LOCK]


def test_going_out_records_the_place():
    r = play(start(["S5", "SK D4", "C4 C6"]), "S5")
    assert one(r, fx.WENT_OUT) == Effect(fx.WENT_OUT, 0, place=1)
    assert r.places() == (1, None, None)


@pytest.mark.parametrize(
    "entry, hand, preset",
    [
        ("joker", "JK", "standard"),
        ("top_rank", "S2", "standard"),
        ("eight_cut", "S8", "standard"),
        ("lone_joker", "JK", "classic"),
        ("eight", "S7 S8 S9 ST", "classic-no-exempt"),
    ],
)
def test_a_forbidden_finish_records_the_entry_and_the_bottom_place(entry, hand, preset):
    kw = {}
    if preset == "classic-no-exempt":
        preset, kw = "classic", {"forbidden_finish_sequences_exempt": False}
    r = act(start([hand, "HK DK CK", "C4 C5 D6"], preset, **kw), hand)
    penalty = one(r, fx.PENALISED)
    assert (penalty.seat, penalty.reason, penalty.place) == (0, entry, 3)
    assert fx.WENT_OUT not in kinds(r)


def test_spade3_return_and_revolution_finishes_name_their_entries():
    r = start(["JK H9", "S3", "C4 C5"], "standard", forbidden_finish=["spade3_return"], leader=0)
    r = play(r, "JK", "S3")
    assert one(r, fx.PENALISED).reason == "spade3_return"
    r = start(["S5 H5 D5 C5", "SK", "C4 C6"], "basic", forbidden_finish=["revolution"])
    r = act(r, "S5 H5 D5 C5")
    assert one(r, fx.PENALISED).reason == "revolution"
    assert one(r, fx.REVOLUTION).on is True


def test_a_later_penalty_takes_the_place_above_an_earlier_one():
    hands = ["S2", "H2", "C4 C6", "D7 D9"]
    r = act(start(hands, "standard"), "S2")
    assert one(r, fx.PENALISED).place == 4
    r = play(r, "pass")  # seat 1 cannot beat S2 with H2 (equal), passes
    r = play(r, "pass", "pass")
    r = act(r, "H2")
    assert one(r, fx.PENALISED).place == 3
    assert r.places()[:2] == (4, 3)


def test_miyako_ochi_records_who_dropped_and_the_place():
    # seat 3 was first last round; seat 1 (last) leads and goes out first, cleanly
    rules = RuleSet.preset("basic", miyako_ochi=True)
    hands = ["S4 S5", "S9 H9 D9", "C4 C6", "D7 DT DK"]
    r = Round.start(rules, hands, previous=[3, 0, 2, 1])
    r = r.give(3, "S9 H9")  # back to seat 1 what it had to hand over
    r = r.give(0, "C6")
    assert kinds(r) == [fx.GIFT, fx.EXCHANGE_OVER] and r.to_act == 1
    r = act(r, "S9 H9 D9")
    assert kinds(r) == [fx.PLAYED, fx.WENT_OUT, fx.MIYAKO_OCHI]
    assert one(r, fx.WENT_OUT).place == 1
    assert (one(r, fx.MIYAKO_OCHI).seat, one(r, fx.MIYAKO_OCHI).place) == (3, 4)
    assert r.places() == (None, 1, None, 4)


def test_a_round_over_is_recorded_last():
    r = play(start(["S5", "SK", "C4 C6"]), "S5", "SK")
    assert kinds(r) == [fx.PLAYED, fx.WENT_OUT, fx.ROUND_OVER]
    assert r.places() == (1, 2, 3) and r.result == (0, 1, 2)


def test_nobody_left_to_answer_is_not_an_eight_cut():
    """The reported bug: basic with pass_until_clear, seat 0 goes out, two passes, seat 3
    plays H8: the field clears because nobody is left to answer, not by an 8-cut."""
    r = start(["S6", "C3 C4", "D3 D4", "H8 S9 SK"], "basic", pass_until_clear=True)
    r = play(r, "S6", "pass", "pass", "H8")
    assert kinds(r) == [fx.PLAYED, fx.CLEARED]
    assert one(r, fx.CLEARED).reason == "nobody_left_to_answer" and one(r, fx.CLEARED).seat == 3
    assert fx.EIGHT_CUT not in kinds(r)


def test_the_start_records_the_forced_gifts_and_give_records_returns():
    rules = RuleSet.preset("standard")
    hands = ["S2 H2 C3 C4", "SA D5 D6", "H7 H8 H9", "HT HJ HQ"]
    r = Round.start(rules, hands, previous=[1, 2, 3, 0])
    gifts = [e for e in r.effects if e.kind == fx.GIFT]
    assert [(g.seat, g.to, g.size, g.on) for g in gifts] == [(0, 1, 2, True), (3, 2, 1, True)]
    assert gifts[0].cards == parse_cards("S2 H2")
    r2 = r.give(1, "D5 D6")
    assert kinds(r2) == [fx.GIFT]
    assert (r2.effects[0].seat, r2.effects[0].to, r2.effects[0].on) == (1, 0, False)
    r3 = r2.give(2, "H7")
    assert kinds(r3) == [fx.GIFT, fx.EXCHANGE_OVER]
    assert one(r3, fx.EXCHANGE_OVER).seat == r3.to_act


def test_gift_cards_stay_between_giver_and_receiver():
    rules = RuleSet.preset("standard")
    hands = ["S2 H2 C3 C4", "SA D5 D6", "H7 H8 H9", "HT HJ HQ"]
    r = Round.start(rules, hands, previous=[1, 2, 3, 0])
    assert [g.cards for g in visible_to(r.effects, 2) if g.seat == 0] == [0]
    assert [g.cards for g in visible_to(r.effects, 1) if g.seat == 0] == [parse_cards("S2 H2")]
    assert [g.cards for g in observe(r, 3).effects if g.seat == 0] == [0]
    assert all(g.cards == 0 for g in visible_to(r.effects, None))


def test_observations_carry_the_last_actions_public_effects():
    r = act(start(["S8 H9", "SK", "C4"], "standard"), "S8")
    obs = observe(r, 2)
    assert obs.effects == r.effects
    assert [e["kind"] for e in obs.to_json()["effects"]] == [fx.PLAYED, fx.EIGHT_CUT, fx.CLEARED]
    assert effect_json(r.effects[0]) == {"kind": fx.PLAYED, "seat": 0, "move": "S8"}
    assert round_from_observation(obs, list(r.hands)).effects == obs.effects


def test_effects_do_not_change_round_equality():
    a = start(["S5 H9", "SK", "C4"])
    b = start(["S5 H9", "SK", "C4"])
    assert a == b and hash(a) == hash(b)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_effects_agree_with_the_state_over_random_matches(preset):
    """Every effect says what the state shows: a clear leaves an empty field, a finish
    matches places(), penalties fill the bottom, the round ends with round_over."""
    rng = random.Random(f"effects{preset}")
    seen: set[str] = set()
    for players in (3, 4, 5):
        states = random_match(RuleSet.preset(preset), players, 3, preset, rng)
        for m in states:
            r = m.round
            effects = r.effects
            seen.update(e.kind for e in effects)
            places = r.places()
            for e in effects:
                assert e.kind in KINDS
                if e.kind == fx.CLEARED:
                    assert r.top is None and e.reason in CLEAR_REASONS and e.seat == r.to_act
                if e.kind in (fx.WENT_OUT, fx.PENALISED, fx.MIYAKO_OCHI):
                    assert places[e.seat] == e.place
                if e.kind in (fx.PENALISED, fx.MIYAKO_OCHI):
                    assert e.seat in r.penalised
            if r.over and effects:
                assert effects[-1].kind == fx.ROUND_OVER
    assert {fx.PLAYED, fx.PASSED, fx.CLEARED, fx.WENT_OUT, fx.ROUND_OVER} <= seen


def test_places_of_a_finished_round_follow_the_result():
    rng = random.Random(5)
    finished = 0
    for m in random_match(RuleSet.preset("standard"), 4, 3, "places", rng):
        r = m.round
        if r.over:
            places = r.places()
            assert [places[s] for s in r.result] == [1, 2, 3, 4]
            finished += 1
    assert finished
