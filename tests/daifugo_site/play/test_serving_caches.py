"""A web or computer worker bounds the engine's hand caches (issue 43: the soak's growth)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from daifugo_site.play import thinking
from rules_engine import Match, RuleSet, moves
from rules_engine.ai import Budget, heuristics


@pytest.fixture
def restored() -> Iterator[None]:
    yield
    thinking.serving_caches(20_000)


def _play(moves_to_play: int) -> list[tuple[int, int]]:
    """Cache sizes (sequences, plans) after each of the first moves of a match."""
    match = Match.new(RuleSet.preset("standard"), 4, 1, 3)
    sizes = []
    for _ in range(moves_to_play):
        r = match.round
        if r.over:
            break
        seat = next((s for s in range(4) if r.owed[s]), r.to_act)
        action = thinking.think(match.observe(seat), "intermediate", "s", Budget(playouts=1))
        out = match.apply(action)
        assert isinstance(out, Match)
        match = out
        sizes.append((len(moves._SEQ_CACHE), len(heuristics._PLAN_CACHE)))
    return sizes


def test_a_serving_process_keeps_at_most_its_bound_of_hands(restored: None) -> None:
    moves._SEQ_CACHE.clear()
    heuristics._PLAN_CACHE.clear()
    unbounded = _play(60)
    # The same moves fill both caches well past the bound when nothing bounds them.
    assert max(s for s, _ in unbounded) > 7 and max(p for _, p in unbounded) > 7
    thinking.serving_caches(7)
    bounded = _play(60)
    assert all(s <= 7 and p <= 7 for s, p in bounded)


def test_a_bound_below_one_is_refused() -> None:
    with pytest.raises(ValueError):
        thinking.serving_caches(0)


def test_the_settings_bound_is_applied_by_the_web_entry_point(restored: None) -> None:
    import importlib

    import daifugo_site.asgi

    moves.set_sequence_cache_limit(20_000)
    importlib.reload(daifugo_site.asgi)
    from django.conf import settings

    assert moves._SEQ_CACHE_LIMIT == settings.ENGINE_SERVING_CACHE_ENTRIES
    assert heuristics._PLAN_CACHE_LIMIT == settings.ENGINE_SERVING_CACHE_ENTRIES
