"""JSON: actions, rules, matches as rules + seed + action log."""

import json
import random

import pytest
from engine_testlib import random_match, same_match

from rules_engine import Action, ActionError, Match, RuleSet, observe

ACTIONS = [
    Action.play(0, "S3"),
    Action.play(2, "JK S5 JK", form="group"),
    Action.play(3, "S5 JK JK", form="sequence"),
    Action.play(5, "HT HJ HQ HK"),
    Action.pass_(1),
    Action.give(4, "JK C2"),
    Action.next_round(),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_actions_round_trip_through_json(action):
    data = json.loads(json.dumps(action.to_json()))
    assert Action.from_json(data) == action


def test_action_json_shapes():
    assert Action.play(0, "S5 JK JK", form="group").to_json() == {
        "seat": 0,
        "play": "S5 JK JK",
        "form": "group",
    }
    assert Action.play(1, "HT S3").to_json() == {"seat": 1, "play": "S3 HT"}
    assert Action.pass_(2).to_json() == {"seat": 2, "pass": True}
    assert Action.give(3, "C2 JK").to_json() == {"seat": 3, "give": "C2 JK"}
    assert Action.next_round().to_json() == {"next": True}


def test_action_cards_are_canonical():
    assert Action.from_json({"seat": 0, "play": "JK S5 C3"}).cards == "C3 S5 JK"
    assert Action.from_json({"seat": 0, "play": "JK S5 C3"}) == Action.play(0, "S5 C3 JK")


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "pass",
        3,
        {},
        {"seat": 0},
        {"seat": 0, "play": "S3", "pass": True},
        {"seat": 0, "play": "S3", "give": "S3"},
        {"next": True, "seat": 0},
        {"seat": 0, "play": "S3", "colour": "red"},
        {"seat": 0, "give": "S3", "form": "single"},
        {"seat": 0, "pass": True, "form": "single"},
        {"play": "S3"},
        {"seat": "0", "play": "S3"},
        {"seat": True, "play": "S3"},
        {"seat": 1.0, "pass": True},
        {"seat": None, "pass": True},
        {"seat": 0, "pass": False},
        {"seat": 0, "pass": "yes"},
        {"seat": 0, "play": 3},
        {"seat": 0, "play": ["S3"]},
        {"seat": 0, "give": None},
        {"seat": 0, "play": "S1"},
        {"seat": 0, "play": "S3 S3"},
        {"seat": 0, "play": "JK JK JK"},
        {"seat": 0, "play": "S3", "form": "pair"},
        {"seat": 0, "play": "S3", "form": 1},
    ],
    ids=repr,
)
def test_malformed_action_json_is_refused(data):
    with pytest.raises(ActionError):
        Action.from_json(data)


def test_action_error_is_a_value_error():
    assert issubclass(ActionError, ValueError)


def test_rules_json_round_trip_inside_a_record():
    rules = RuleSet.preset("classic", number_lock=True, suit_lock_after=3, hand_size=11)
    m = Match.new(rules, 4, 3, 9)
    record = json.loads(json.dumps(m.to_record()))
    assert RuleSet.from_json(record["rules"]) == rules
    assert Match.from_record(record).rules == rules


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_match_records_replay_to_an_equal_state(players):
    rng = random.Random(players)
    rules = RuleSet.preset(rng.choice(["standard", "party", "classic", "basic"]))
    states = random_match(rules, players, 3, f"s{players}", rng)
    for m in states[:: max(1, len(states) // 10)] + [states[-1]]:
        again = Match.from_record(json.loads(json.dumps(m.to_record())))
        assert same_match(again, m)
        assert again.round == m.round
        assert again.round.hands == m.round.hands


def test_observations_are_json():
    rng = random.Random(1)
    for m in random_match(RuleSet.preset("party"), 4, 1, 1, rng)[::7]:
        for seat in range(4):
            data = observe(m.round, seat).to_json()
            assert json.loads(json.dumps(data)) == data
            assert data["counts"] == list(m.round.counts())


def test_observations_rounds_matches_and_moves_survive_pickling():
    # The computer players and the review run in other processes: what crosses over is
    # pickled, compiled engine (rules_engine/native.py) or not.
    import pickle

    from rules_engine import Match, RuleSet, observe
    from uecda.protocol import with_suits

    match = Match.new(RuleSet.preset("party"), 4, 3, 5)
    r = match.round
    obs = observe(r, r.to_act)
    assert pickle.loads(pickle.dumps(obs)) == obs
    assert pickle.loads(pickle.dumps(r)) == r
    again = pickle.loads(pickle.dumps(match))
    assert again.round == match.round and again.log == match.log
    move = obs.legal[-1]
    copy = pickle.loads(pickle.dumps(move))
    assert copy == move and (copy.low, copy.high, copy.suits) == (move.low, move.high, move.suits)
    odd = with_suits(move, 0b1010)
    assert pickle.loads(pickle.dumps(odd)).suits == 0b1010
