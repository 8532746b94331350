"""The learned policy: legal wherever it plays, its shipped weights match its features,
its draws are reproducible, and the trainer fits what the records show."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from aihelpers import TABLES, random_positions

from rules_engine import Round, RuleSet
from rules_engine.ai.heuristics import round_context, round_legal
from rules_engine.ai.policy import (
    FOLLOW_FEATURES,
    LEAD_FEATURES,
    Weights,
    decision_features,
    default_weights,
    move_probability,
    observation_move,
    policy_move,
)
from rules_engine.state import PLAY
from uecda.records import read_records
from uecda.train_policy import accuracy, examples, fit, loglik
from uecda.train_policy import main as train_main


def test_the_shipped_weights_name_every_feature() -> None:
    data = json.loads(Path("rules_engine/ai/policy_weights.json").read_text(encoding="utf-8"))
    assert set(data["lead"]) == set(LEAD_FEATURES)
    assert set(data["follow"]) == set(FOLLOW_FEATURES)
    w = default_weights()
    assert len(w.lead) == len(LEAD_FEATURES)
    assert any(x != 0.0 for x in w.follow)


def test_weights_of_the_wrong_shape_are_refused() -> None:
    with pytest.raises(ValueError, match="do not match"):
        Weights([0.0], [0.0] * len(FOLLOW_FEATURES))


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_the_policy_plays_whole_rounds_legally(label: str, rules: RuleSet, players: int) -> None:
    rng = random.Random(label)
    for deal in range(6):
        r = Round.deal(rules, players, seed=f"{label}-{deal}")
        while r.phase == PLAY:
            move = policy_move(r, rng, temperature=0.5 if deal % 2 else 0.0)
            assert move in r.legal_moves()
            nxt = r.apply(move)
            assert isinstance(nxt, Round)
            r = nxt


def test_options_are_the_plan_when_leading_and_pass_plus_plays_when_following() -> None:
    rules = RuleSet.preset("uecda")
    r = Round.start(rules, ["D3 S3 H9", "C5 C6", "H6", "S7", "C9"])
    options, features = decision_features(round_context(r), round_legal(r))
    assert sorted(str(m) for m in options) == ["H9", "S3 D3"]
    assert all(len(f) == len(LEAD_FEATURES) for f in features)
    r2 = r.apply(next(m for m in r.legal_moves() if str(m) == "H9"))
    assert isinstance(r2, Round)
    options, features = decision_features(round_context(r2), round_legal(r2))
    assert [m.form for m in options][0] == 0  # pass first, with no features set
    assert features[0] == [0.0] * len(FOLLOW_FEATURES)


def test_draws_repeat_with_the_seed_and_vary_with_the_temperature() -> None:
    rules = RuleSet.preset("uecda")
    r = Round.deal(rules, 5, seed=3)
    first = [str(policy_move(r, random.Random(s), temperature=5.0)) for s in range(40)]
    again = [str(policy_move(r, random.Random(s), temperature=5.0)) for s in range(40)]
    assert first == again
    assert len(set(first)) > 1
    best = {str(policy_move(r, random.Random(s), temperature=0.0)) for s in range(10)}
    assert len(best) == 1


def test_move_probabilities_are_the_draws_odds() -> None:
    # Over a decision's options the chances sum to 1, the best-scored option has the
    # largest, a play outside the options has none, and a forced move tells nothing.
    rules = RuleSet.preset("uecda")
    checked = 0
    for deal in range(20):
        r = Round.deal(rules, 5, seed=f"odds-{deal}")
        rng = random.Random(deal)
        while r.phase == PLAY and checked < 200:
            legal = r.legal_moves()
            options, _ = decision_features(round_context(r), round_legal(r))
            chances = [move_probability(r, m) for m in legal]
            if len(options) < 2:
                assert set(chances) == {None}
            else:
                listed = [move_probability(r, m) for m in options]
                assert all(p is not None and 0.0 < p < 1.0 for p in listed)
                assert abs(sum(p for p in listed if p is not None) - 1.0) < 1e-9
                best = policy_move(r)
                assert move_probability(r, best) == max(listed)
                for m, p in zip(legal, chances, strict=True):
                    assert (p == 0.0) == (m not in options)
                checked += 1
            nxt = r.apply(policy_move(r, rng, temperature=1.0))
            assert isinstance(nxt, Round)
            r = nxt
    assert checked >= 100
    # A cooler draw is surer of its best option.
    r = Round.deal(rules, 5, seed=3)
    best = policy_move(r)
    hot = move_probability(r, best, temperature=2.0)
    cool = move_probability(r, best, temperature=0.5)
    assert hot is not None and cool is not None and cool > hot


def test_fitting_learns_the_preference_the_examples_show() -> None:
    # Two options each time; the one whose first feature is set is always played.
    data = []
    for i in range(60):
        a = [1.0, (i % 7) / 7]
        b = [0.0, ((i + 3) % 7) / 7]
        data.append(([a, b], 0, False) if i % 2 else ([b, a], 1, False))
    w = fit(data, 2, iterations=150)
    assert w[0] > 1.0
    assert accuracy(w, data) == 1.0
    assert loglik(w, data) > loglik([0.0, 0.0], data)


GAME = """/*
game {index}
class 0 1 2 3 4
seat 0 1 2 3 4
original {{ d3 h9 s9 }} {{ c4 dk }} {{ h5 hq }} {{ s6 sj }} {{ d7 st }}
play d-3 c-4 h-5 s-6 d-7 {last}
result 0 1 2 3 4
*/"""


def test_the_trainer_writes_weights_the_policy_loads(tmp_path: Path) -> None:
    record = tmp_path / "games.dat"
    games = []
    for g in range(12):
        # The diamond 3 holder leads; no two plays in a row share a suit (no lock).
        games.append(GAME.format(index=g, last="h-9 d-k"))
    record.write_text("\n".join(games), encoding="utf-8")
    out = tmp_path / "w.json"
    assert train_main([str(record), "--out", str(out), "--iterations", "20"]) == 0
    w = Weights.load(out)
    assert len(w.follow) == len(FOLLOW_FEATURES)
    assert any(x != 0.0 for x in w.follow)  # the games were replayed and fitted
    assert json.loads(out.read_text(encoding="utf-8"))["games"] == 12


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_the_policy_plays_legally_from_an_observation(
    label: str, rules: RuleSet, players: int
) -> None:
    rng = random.Random(label)
    for obs in random_positions(rules, players, 40, seed=players * 5 + len(label)):
        move = observation_move(obs, rng, temperature=0.5)
        assert move in obs.legal, (label, obs.to_json(), str(move))


def test_a_game_that_cannot_be_replayed_to_its_end_gives_no_examples() -> None:
    good = read_records(GAME.format(index=0, last="h-9 d-k"))
    bad = read_records(GAME.format(index=1, last="h-8 d-k"))  # seat 0 holds no eights
    leads, follows, tally = examples(good)
    assert leads or follows
    assert examples(bad) == ([], [], {"decisions": 0, "uncovered": 0, "unreplayable_games": 1})
    both = examples(good + bad)
    assert (len(both[0]), len(both[1])) == (len(leads), len(follows))
    assert both[2] == {**tally, "unreplayable_games": 1}


def test_a_skipped_players_decisions_are_left_out_and_the_others_kept() -> None:
    """A tournament's record holds this project's moves too: ``skip`` leaves them out."""
    text = "player p0 p1 p2 p3 ours\n" + GAME.format(index=0, last="h-9 d-k")
    game = read_records(text)
    assert game[0].names == ("p0", "p1", "p2", "p3", "ours")
    leads, follows, tally = examples(game)
    seat0 = examples(game, frozenset({"p0"}))
    assert seat0[2]["decisions"] < tally["decisions"]
    assert seat0[2]["decisions"] > 0
    assert seat0[2]["unreplayable_games"] == 0
    # Seat 0 made the only lead with a choice.
    assert leads and not seat0[0]
    everyone = examples(game, frozenset({"p0", "p1", "p2", "p3", "ours"}))
    assert everyone == ([], [], {"decisions": 0, "uncovered": 0, "unreplayable_games": 0})
    # The unnamed record reads as before: nothing is skipped.
    unnamed = read_records(GAME.format(index=0, last="h-9 d-k"))
    assert examples(unnamed, frozenset({"p0"}))[2] == tally
