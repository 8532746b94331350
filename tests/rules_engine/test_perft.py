"""Perft-style move counts from fixed seeded deals, pinned in ``perft.json``.

The counts change whenever move generation, a rule effect or the deal changes; the
small cases were counted by hand from RULES.md (see each case's ``verified``).
"""

import json
from pathlib import Path

import pytest

from rules_engine import Refusal, Round, RuleSet
from rules_engine.cards import format_cards

CASES = json.loads((Path(__file__).parent / "perft.json").read_text(encoding="utf-8"))["cases"]


def children(r):
    for move in r.legal_moves():
        child = r.apply(move)
        assert not isinstance(child, Refusal), (str(move), child)
        yield child


def leaves(r, depth):
    if depth == 0 or r.over:
        return 1
    return sum(leaves(child, depth - 1) for child in children(r))


def nodes(r, depth):
    if depth == 0 or r.over:
        return 1
    return 1 + sum(nodes(child, depth - 1) for child in children(r))


def case_id(case):
    extra = ",".join(f"{k}={v}" for k, v in case["options"].items())
    return f"{case['preset']}-{case['players']}p-seed{case['seed']}" + (
        f"-{extra}" if extra else ""
    )


def test_some_cases_were_counted_by_hand():
    assert sum(1 for case in CASES if case["verified"]) >= 3


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_perft(case):
    rules = RuleSet.preset(case["preset"], **case["options"])
    r = Round.deal(rules, case["players"], case["seed"])
    assert r.to_act == case["to_act"]
    assert format_cards(r.hands[r.to_act]) == case["hand"]
    assert [leaves(r, depth) for depth in (1, 2, 3)] == case["leaves"]
    assert nodes(r, 3) == case["nodes"]
    assert len(r.legal_moves()) == case["leaves"][0]
