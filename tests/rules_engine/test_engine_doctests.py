"""The examples in the engine's docstrings run, compiled or not (engine_testlib.source_module
reads them from the sources when the engine runs compiled)."""

from __future__ import annotations

import doctest

import pytest
from engine_testlib import source_module

MODULES = [
    "rules_engine",
    "rules_engine.actions",
    "rules_engine.cards",
    "rules_engine.effects",
    "rules_engine.match",
    "rules_engine.moves",
    "rules_engine.native",
    "rules_engine.observation",
    "rules_engine.rules",
    "rules_engine.solver",
    "rules_engine.state",
    "rules_engine.ai",
    "rules_engine.ai.base",
    "rules_engine.ai.beginner",
    "rules_engine.ai.heuristics",
    "rules_engine.ai.intermediate",
    "rules_engine.ai.policy",
    "rules_engine.ai.worlds",
    "rules_engine.ai.advanced",
    "rules_engine.ai.arena",
    "rules_engine.ai.choices",
    "uecda.protocol",
    "uecda.records",
    "uecda.tournament",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(source_module(name))
    assert result.failed == 0
    assert result.attempted > 0
