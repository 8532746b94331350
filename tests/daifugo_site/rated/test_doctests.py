"""The doctests of the rating update, the rating chart and the turn clock."""

from __future__ import annotations

import doctest

from daifugo_site import ratings
from daifugo_site.accounts import charts
from daifugo_site.play import clock


def test_doctests() -> None:
    for module in (charts, ratings, clock):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
