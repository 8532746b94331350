"""The examples in the computer players' docstrings run."""

from __future__ import annotations

import doctest

import pytest
from engine_testlib import source_module

MODULES = [
    "rules_engine.ai",
    "rules_engine.ai.base",
    "rules_engine.ai.beginner",
    "rules_engine.ai.intermediate",
    "rules_engine.ai.worlds",
    "rules_engine.ai.advanced",
    "rules_engine.ai.arena",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(source_module(name))
    assert result.failed == 0
    assert result.attempted > 0
