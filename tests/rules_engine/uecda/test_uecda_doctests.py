"""The examples in the UECda bridge's docstrings (and the joker-suit reading) run."""

from __future__ import annotations

import doctest

import pytest
from engine_testlib import source_module


@pytest.mark.parametrize(
    "name",
    ["rules_engine.uecda.protocol", "rules_engine.uecda.tournament", "rules_engine.state"],
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(source_module(name))
    assert result.failed == 0
    assert result.attempted > 0
