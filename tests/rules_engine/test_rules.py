"""Rule sets: the four presets of RULES.md section 6, overrides, JSON, bad options."""

import dataclasses
import json
import random

import pytest

from rules_engine import PRESET_NAMES, PRESET_PLAYERS, RulesError, RuleSet
from rules_engine.rules import ONE_ON_ONE, PARTY_FORBIDDEN_FINISH

# RULES.md section 6, row by row. Options the table does not name take the
# defaults of sections 2 and 3 (sequence_min 3, revolution_group_min 4,
# suit_lock_after 2, number_lock off, hand_size null, sequences not exempt).
PRESET_TABLE = {
    "standard": {
        "jokers": 1,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": 5,
        "eight_cut": "groups",
        "jback": "off",
        "suit_lock": True,
        "suit_lock_after": 2,
        "spade3_return": True,
        "forbidden_finish": {"joker", "top_rank", "eight_cut", "spade3_return"},
        "forbidden_finish_sequences_exempt": False,
        "miyako_ochi": True,
        "pass_until_clear": False,
    },
    "party": {
        "jokers": 2,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": None,
        "eight_cut": "any",
        "jback": "any",
        "suit_lock": True,
        "suit_lock_after": 2,
        "spade3_return": True,
        "forbidden_finish": set(),
        "forbidden_finish_sequences_exempt": False,
        "miyako_ochi": True,
        "pass_until_clear": True,
    },
    "classic": {
        "jokers": 1,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": 4,
        "eight_cut": "groups",
        "jback": "groups",
        "suit_lock": True,
        "suit_lock_after": 2,
        "spade3_return": True,
        "forbidden_finish": {"lone_joker", "top_rank", "eight"},
        "forbidden_finish_sequences_exempt": True,
        "miyako_ochi": True,
        "pass_until_clear": False,
    },
    "basic": {
        "jokers": 1,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": None,
        "eight_cut": "off",
        "jback": "off",
        "suit_lock": False,
        "spade3_return": False,
        "forbidden_finish": set(),
        "forbidden_finish_sequences_exempt": False,
        "miyako_ochi": False,
        "pass_until_clear": False,
    },
}

DEFAULTS = {
    "sequence_min": 3,
    "revolution_group_min": 4,
    "number_lock": False,
    "hand_size": None,
}


def test_the_four_presets():
    assert set(PRESET_NAMES) == {"standard", "party", "classic", "basic"}


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_matches_the_rules_table(name):
    r = RuleSet.preset(name)
    assert r.preset_name == name
    for option, value in PRESET_TABLE[name].items():
        got = getattr(r, option)
        if option == "forbidden_finish":
            assert set(got) == value, option
            assert len(got) == len(value)
        else:
            assert got == value, option
    for option, value in DEFAULTS.items():
        assert getattr(r, option) == value, option


def test_preset_players_as_the_table_says():
    assert set(PRESET_PLAYERS["standard"]) == {4, 2}
    assert set(PRESET_PLAYERS["party"]) == {3, 4}
    assert set(PRESET_PLAYERS["classic"]) == {4, 5, 6}
    assert set(PRESET_PLAYERS["basic"]) == {3, 4, 5, 6}


def test_party_forbidden_finish_when_switched_on():
    assert set(PARTY_FORBIDDEN_FINISH) == {"joker", "top_rank", "eight", "revolution"}
    on = RuleSet.preset("party", forbidden_finish=list(PARTY_FORBIDDEN_FINISH))
    assert all(on.forbids(e) for e in PARTY_FORBIDDEN_FINISH)
    assert not on.forbids("eight_cut")


def test_one_on_one_is_standard_with_13_cards():
    r = RuleSet.from_json(ONE_ON_ONE)
    assert r.hand_size == 13
    assert r.replace(hand_size=None) == RuleSet.preset("standard")


def test_overrides_change_only_what_they_name():
    base = RuleSet.preset("standard")
    r = RuleSet.preset("standard", jback="any", suit_lock_after=3)
    assert r.jback == "any" and r.suit_lock_after == 3
    for name, value in base.options().items():
        if name not in ("jback", "suit_lock_after"):
            assert getattr(r, name) == value


def test_replace_returns_a_new_rule_set():
    base = RuleSet.preset("classic")
    changed = base.replace(number_lock=True)
    assert changed.number_lock and not base.number_lock
    assert changed != base


def test_rule_sets_are_immutable_and_hashable():
    r = RuleSet.preset("standard")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.jokers = 2  # type: ignore[misc]
    assert len({r, RuleSet.preset("standard"), RuleSet.preset("party")}) == 2


def test_forbidden_finish_order_and_repeats_do_not_matter():
    a = RuleSet.preset("basic", forbidden_finish=["eight", "joker"])
    b = RuleSet.preset("basic", forbidden_finish=("joker", "eight", "joker"))
    assert a == b
    assert hash(a) == hash(b)
    assert len(b.forbidden_finish) == 2


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_json_is_just_its_name(name):
    assert RuleSet.preset(name).to_json() == {"preset": name}
    assert RuleSet.from_json({"preset": name}) == RuleSet.preset(name)


def test_json_holds_only_the_overrides():
    r = RuleSet.preset("party", forbidden_finish=["joker"], hand_size=13)
    data = r.to_json()
    assert data == {"preset": "party", "forbidden_finish": ["joker"], "hand_size": 13}
    assert json.loads(json.dumps(data)) == data
    assert RuleSet.from_json(data) == r


def test_json_without_a_preset_starts_from_basic():
    assert RuleSet.from_json({}) == RuleSet.preset("basic")


OPTION_VALUES = {
    "jokers": [0, 1, 2],
    "sequence_min": [3, 4, 5],
    "sequence_beats": ["above_top", "above_bottom"],
    "revolution": [True, False],
    "revolution_group_min": [3, 4, 5],
    "revolution_sequence_min": [None, 4, 5],
    "eight_cut": ["off", "groups", "any"],
    "jback": ["off", "groups", "any"],
    "suit_lock": [True, False],
    "suit_lock_after": [2, 3],
    "number_lock": [True, False],
    "spade3_return": [True, False],
    "forbidden_finish": [
        [],
        ["joker"],
        ["lone_joker", "top_rank"],
        ["eight", "eight_cut", "spade3_return", "revolution"],
    ],
    "forbidden_finish_sequences_exempt": [True, False],
    "miyako_ochi": [True, False],
    "pass_until_clear": [True, False],
    "hand_size": [None, 1, 13, 26],
}


def test_random_option_combinations_round_trip_through_json():
    rng = random.Random(5)
    for _ in range(300):
        preset = rng.choice(PRESET_NAMES)
        overrides = {k: rng.choice(v) for k, v in OPTION_VALUES.items() if rng.random() < 0.4}
        r = RuleSet.preset(preset, **overrides)
        data = json.loads(json.dumps(r.to_json()))
        assert RuleSet.from_json(data) == r
        for k, v in overrides.items():
            got = getattr(r, k)
            assert (set(got) == set(v)) if k == "forbidden_finish" else got == v


@pytest.mark.parametrize(
    "overrides",
    [
        {"jokers": 3},
        {"jokers": -1},
        {"sequence_min": 2},
        {"sequence_beats": "above_middle"},
        {"revolution_group_min": 6},
        {"revolution_sequence_min": 2},
        {"eight_cut": "all"},
        {"eight_cut": True},
        {"jback": "on"},
        {"suit_lock_after": 4},
        {"forbidden_finish": ["jokers"]},
        {"forbidden_finish": "joker"},
        {"forbidden_finish": None},
        {"hand_size": 0},
        {"hand_size": 27},
        {"revolution": "yes"},
        {"suit_lock": 1},
        {"number_lock": None},
        {"spade3_return": "true"},
        {"miyako_ochi": 0},
        {"pass_until_clear": "false"},
        {"forbidden_finish_sequences_exempt": 1},
        {"eleven_back": "any"},
        {"preset_name_typo": "x"},
    ],
)
def test_bad_options_are_refused(overrides):
    with pytest.raises(RulesError):
        RuleSet.preset("standard", **overrides)
    with pytest.raises(RulesError):
        RuleSet.from_json({"preset": "standard", **overrides})


@pytest.mark.parametrize(
    "data",
    [
        {"preset": "nope"},
        {"preset": 3},
        {"preset": "standard", "preset_name": "party"},
        ["standard"],
        "standard",
        None,
    ],
)
def test_bad_rules_json_is_refused(data):
    with pytest.raises(RulesError):
        RuleSet.from_json(data)


def test_unknown_preset_is_refused():
    with pytest.raises(RulesError, match="unknown preset"):
        RuleSet.preset("local")


def test_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)


def test_the_uecda_preset_is_uecdas_standard_rules_and_not_offered_by_the_site():
    from rules_engine.rules import ENGINE_PRESET_NAMES

    rules = RuleSet.preset("uecda")
    assert "uecda" in ENGINE_PRESET_NAMES and "uecda" not in PRESET_NAMES
    assert PRESET_PLAYERS["uecda"] == (5,)
    assert (rules.jokers, rules.revolution_group_min, rules.revolution_sequence_min) == (1, 4, 5)
    assert (rules.eight_cut, rules.jback, rules.suit_lock, rules.suit_lock_after) == (
        "any",
        "off",
        True,
        2,
    )
    assert rules.spade3_return and rules.pass_until_clear and not rules.miyako_ochi
    assert rules.forbidden_finish == ()
    assert rules.return_to_last and rules.joker_suit and rules.eight_cut_joker
    assert rules.leader_may_pass and rules.diamond3_leads and rules.joker_beyond_ends
    assert RuleSet.from_json(rules.to_json()) == rules
    assert rules.to_json() == {"preset": "uecda"}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_uecda_options_are_off_in_every_site_preset(name):
    rules = RuleSet.preset(name)
    for option in (
        "return_to_last",
        "joker_suit",
        "eight_cut_joker",
        "leader_may_pass",
        "diamond3_leads",
        "joker_beyond_ends",
    ):
        assert getattr(rules, option) is False, option
