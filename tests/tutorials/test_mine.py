"""The puzzle miner on a small seeded batch: every puzzle re-proven from its table, with one
winning first move, themes read from the engine, the tutor's validator happy, no duplicate
up to suit symmetry; and the shipped data file is big enough and well formed."""

from __future__ import annotations

import pytest

from rules_engine.solver import solve
from tutorials import engine, mine, mined
from tutorials.validation import validate_lesson


@pytest.fixture(scope="module")
def batch() -> tuple[list[dict], dict]:
    return mine.mine(1, seed=3, check=True)


def test_the_batch_has_puzzles_and_a_time_per_puzzle(batch) -> None:
    puzzles, stats = batch
    assert len(puzzles) >= 3
    assert stats["seconds_per_puzzle"] > 0
    assert {p["preset"] for p in puzzles} >= {"standard", "basic"} or len(puzzles) >= 3


def test_every_mined_puzzle_is_re_proven_with_a_unique_answer(batch) -> None:
    for p in batch[0]:
        r = engine.build_table({"preset": p["preset"]}, p["table"]).round
        assert r.to_act == engine.LEARNER
        sol = solve(r, engine.LEARNER, p["place"])
        assert sol.proven and [str(m) for m in sol.winning_moves] == [p["solution"]]
        # Not trivially reached: some legal first move fails the goal.
        assert len(r.legal_moves()) >= 2
        # A better place cannot be forced (the goal is the best the position allows).
        if p["place"] > 0:
            assert not solve(r, engine.LEARNER, p["place"] - 1, all_moves=False).proven


def test_themes_are_read_and_known(batch) -> None:
    for p in batch[0]:
        assert p["themes"] and set(p["themes"]) <= set(mine.THEMES)
        assert p["length"] >= 1 and 600 <= p["rating"] <= 2400
        assert p["line"][0] == [0, p["solution"]]
        # The stored line says the same themes again (what --merge relies on).
        assert mine.retheme(p) == p["themes"]


def test_the_tutor_validator_accepts_each_one(batch) -> None:
    for p in batch[0]:
        report = validate_lesson(mined.lesson_spec(p))
        assert report.ok, report.problems


def test_no_two_puzzles_are_the_same_up_to_suits(batch) -> None:
    keys = set()
    for p in batch[0]:
        r = engine.build_table({"preset": p["preset"]}, p["table"]).round
        key = mine.canonical_key(p["preset"], p["place"], r)
        assert key not in keys
        keys.add(key)


def test_suit_symmetry_makes_the_same_key() -> None:
    from rules_engine import Round, RuleSet

    rules = RuleSet.preset("basic")
    a = Round.start(rules, ["S3 H5", "HK", "D6"], leader=0)
    b = Round.start(rules, ["H3 S5", "SK", "C6"], leader=0)
    c = Round.start(rules, ["S3 H6", "HK", "D6"], leader=0)
    assert mine.canonical_key("basic", 0, a) == mine.canonical_key("basic", 0, b)
    assert mine.canonical_key("basic", 0, a) != mine.canonical_key("basic", 0, c)


def test_the_shipped_file_has_at_least_2000_distinct_puzzles() -> None:
    records = mined.read_records()
    assert len(records) >= 2000
    assert len({r["id"] for r in records}) == len(records)
    assert {r["preset"] for r in records} == set(mine.PRESETS)
    assert mined.data_file().stat().st_size < 3_000_000
