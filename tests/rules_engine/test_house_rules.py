"""The house rules of RULES.md section 8 beyond the scenarios: effects, what each seat
observes, refusals that change nothing, and the stored forms (rules, actions, records)."""

from __future__ import annotations

import json
import random

import pytest
from engine_testlib import CARD_CODE, check_observation, random_match, snapshot

from rules_engine import Action, Match, Refusal, Round, RuleSet, observe
from rules_engine.cards import format_cards, parse_cards
from rules_engine.effects import effect_json
from rules_engine.rules import HOUSE_OPTIONS
from rules_engine.state import rank_text


def start(hands: list[str], **options: object) -> Round:
    return Round.start(RuleSet.preset("basic", **options), hands, leader=0)


def ok(r: Round | Refusal) -> Round:
    assert isinstance(r, Round), r
    return r


def kinds(r: Round) -> list[str]:
    return [e.kind for e in r.effects]


GIFT_HANDS = ["S7 H7 S4 S5 H6", "HK D9", "D6 C6", "C9 CT"]


def test_a_gift_is_told_with_its_cards_to_its_two_seats_only() -> None:
    r = ok(start(GIFT_HANDS, seven_pass="groups").apply("S7 H7"))
    assert kinds(r) == ["played", "owes"]
    owes = r.effects[-1]
    assert (owes.seat, owes.to, owes.size, owes.reason) == (0, 1, 2, "give")
    given = ok(r.choose(0, "S4 H6"))
    gave = given.effects[0]
    assert (gave.kind, gave.seat, gave.to, gave.size) == ("gave", 0, 1, 2)
    assert format_cards(gave.cards) == "S4 H6"
    for seat in range(4):
        obs = observe(given, seat)
        text = json.dumps(obs.to_json())
        shown = parse_cards(sorted(set(CARD_CODE.findall(text))))
        gift = parse_cards("S4 H6")
        if seat in (0, 1):
            assert obs.effects[0].cards == gift
            assert obs.choices[0][3] == gift
        else:
            # a third seat learns that two cards changed hands, never which
            assert obs.effects[0].cards == 0 and obs.effects[0].size == 2
            assert obs.choices[0][3] == 0 and obs.choices[0][5] == 2
            assert shown & gift == 0
        check_observation(given, seat)


def test_the_owed_choice_is_public() -> None:
    r = ok(start(GIFT_HANDS, seven_pass="groups").apply("S7 H7"))
    for seat in range(4):
        obs = observe(r, seat)
        assert obs.owed_choice == (0, 0, 2, 1)
        assert obs.to_json()["owed"] == {"by": 0, "kind": "give", "count": 2, "to": 1}
        assert obs.legal == ()


def test_discards_and_named_ranks_are_public() -> None:
    r = ok(start(["SQ S4 S9", "H4 HK", "D4 C6", "C4 CT"], twelve_bomber="groups").apply("SQ"))
    named = ok(r.name(0, "4"))
    assert kinds(named) == ["named", "discarded", "discarded", "discarded", "discarded"]
    assert [e.seat for e in named.effects[1:]] == [0, 1, 2, 3]
    assert effect_json(named.effects[0]) == {"kind": "named", "seat": 0, "size": 1, "ranks": 2}
    for seat in range(4):
        obs = observe(named, seat)
        assert format_cards(obs.discarded) == "S4 H4 D4 C4"
        assert obs.to_json()["choices"][0]["ranks"] == "4"
        assert obs.effects == named.effects


def test_skip_reverse_and_sandstorm_effects() -> None:
    skip = ok(start(["S5 S9", "HK", "D6", "C9"], five_skip="groups").apply("S5"))
    assert kinds(skip) == ["played", "skipped"] and skip.effects[1].seat == 1
    rev = ok(start(["S9 S4", "HK", "D6", "C9"], nine_reverse="groups").apply("S9"))
    assert kinds(rev) == ["played", "reversed"] and rev.effects[1].on is True
    assert observe(rev, 2).direction == -1
    storm = ok(start(["JK S9", "S3 H3 D3 C4", "D6", "C9"], sandstorm=True).apply("JK"))
    storm = ok(storm.apply("S3 H3 D3"))
    assert kinds(storm) == ["played", "sandstorm", "cleared"]
    assert storm.effects[-1].reason == "sandstorm"


def test_a_cut_waits_for_the_gift() -> None:
    rules = {"seven_pass": "any", "eight_cut": "any"}
    r = ok(start(["S6 S7 S8 H4 D9", "HK", "D6", "C9"], **rules).apply("S6 S7 S8"))
    assert kinds(r) == ["played", "eight_cut", "owes"]
    done = ok(r.choose(0, "H4"))
    assert kinds(done) == ["gave", "cleared"] and done.effects[-1].reason == "eight_cut"


def test_refused_choices_change_nothing() -> None:
    r = ok(start(GIFT_HANDS, seven_pass="groups").apply("S7 H7"))
    before = snapshot(r)
    assert r.choose(1, "HK").reason == "not_your_turn"
    assert r.choose(0, "S4").reason == "wrong_count"
    assert r.choose(0, "S4 HK").reason == "not_in_hand"
    assert r.name(0, "4 5").reason == "no_choice_owed"
    assert r.apply("pass").reason == "choice_owed"
    assert r.apply("S4", seat=2).reason == "choice_owed"
    assert r.give(0, "S4").reason == "wrong_phase"
    assert snapshot(r) == before
    plain = start(GIFT_HANDS)
    assert plain.choose(0, "S4").reason == "no_choice_owed"
    assert plain.name(0, "4").reason == "no_choice_owed"


def test_old_stored_rules_load_with_the_house_rules_off() -> None:
    for preset in ("standard", "party", "classic", "basic"):
        rules = RuleSet.from_json({"preset": preset})
        assert not rules.has_house_rules
        assert all(getattr(rules, name) == "off" for name in HOUSE_OPTIONS)
        assert "seven_pass" not in rules.to_json()
    house = RuleSet.preset("house", twelve_bomber="any", sandstorm=True, five_skip="off")
    assert RuleSet.from_json(json.loads(json.dumps(house.to_json()))) == house
    custom = RuleSet.preset("standard", ten_discard="any")
    assert custom.to_json() == {"preset": "standard", "ten_discard": "any"}


@pytest.mark.parametrize(
    ("option", "value"), [("seven_pass", "all"), ("nine_reverse", True), ("sandstorm", "on")]
)
def test_bad_house_option_values_are_refused(option: str, value: object) -> None:
    from rules_engine import RulesError

    with pytest.raises(RulesError):
        RuleSet.preset("basic", **{option: value})


def test_choice_actions_round_trip_and_replay() -> None:
    assert Action.from_json({"seat": 1, "choose": "H4 S4"}) == Action.choose(1, "S4 H4")
    assert Action.from_json({"seat": 0, "name": "Q 4"}).to_json() == {"seat": 0, "name": "4 Q"}
    rules = RuleSet.preset("house", twelve_bomber="groups", sandstorm=True)
    states = random_match(rules, 4, 3, "replay-house", random.Random(3))
    m = states[-1]
    assert any(a.kind in ("choose", "name") for a in m.log)
    record = json.loads(json.dumps(m.to_record()))
    again = Match.from_record(record)
    assert isinstance(again, Match) and again.round == m.round and again.log == m.log


def test_a_bad_name_action_is_refused_by_the_engine_not_the_parser() -> None:
    m = Match.new(RuleSet.preset("basic"), 3, 1, 1)
    for text in ("5 5", "JK", "X"):
        action = Action.from_json({"seat": 0, "name": text})
        out = m.apply(action)
        assert isinstance(out, Refusal) and out.reason == "no_choice_owed"
    assert rank_text(0b101) == "3 5"


def test_the_solver_searches_choices_like_moves() -> None:
    """A seat owing a choice: the solver proves a place exactly when one of its legal
    choices proves it (the hero's), or when all of them do (another seat's)."""
    from rules_engine.solver import Solver, solve

    rules = RuleSet.preset("basic", seven_pass="groups", ten_discard="groups")
    r = ok(Round.start(rules, ["S7 S9 S2 D4", "HK C5", "DA C4"], leader=0).apply("S7"))
    assert r.owed_choice() is not None
    for hero in range(3):
        for place in range(3):
            children = [Solver(hero, place).wins(ok(r.choose(0, c))) for c in r.legal_choices()]
            want = any(children) if hero == 0 else all(children)
            assert Solver(hero, place).wins(r) is want
            assert solve(r, hero, place).proven is want
