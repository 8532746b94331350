"""daifugo_site/bounded.py: the per-process caches are bounded in entries and idle time."""

from __future__ import annotations

import doctest

from daifugo_site import bounded
from daifugo_site.bounded import Bounded


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_doctests_pass() -> None:
    assert doctest.testmod(bounded).failed == 0


def test_the_least_recently_used_goes_first_and_a_read_counts_as_use() -> None:
    cache: Bounded[int, str] = Bounded(3)
    for i in range(3):
        cache[i] = str(i)
    assert cache.get(0) == "0"
    cache[3] = "3"
    assert sorted(cache.keys()) == [0, 2, 3]
    assert len(cache) == 3


def test_entries_idle_too_long_go_at_the_next_write_however_few_there_are() -> None:
    clock = Clock()
    cache: Bounded[str, int] = Bounded(100, idle_s=60, clock=clock)
    cache["old"] = 1
    clock.now = 30
    cache["newer"] = 2
    clock.now = 61
    cache["now"] = 3
    assert "old" not in cache
    assert sorted(cache.keys()) == ["newer", "now"]
    clock.now = 200
    cache["later"] = 4
    assert cache.keys() == ["later"]


def test_a_write_in_a_steady_stream_of_games_keeps_the_cache_at_the_games_in_play() -> None:
    # 40 games in play, each moved every second, while finished games keep arriving and
    # are never touched again: the cache holds the games in play and those of the last
    # idle_s seconds, however long it runs.
    clock = Clock()
    cache: Bounded[str, int] = Bounded(10_000, idle_s=10, clock=clock)
    sizes = []
    for second in range(600):
        clock.now = float(second)
        for game in range(40):
            cache[f"live-{game}"] = second
        cache[f"ended-{second}"] = second
        sizes.append(len(cache))
    assert max(sizes[100:]) <= 40 + 11
    assert sizes[-1] == sizes[100]


def test_pop_clear_and_a_missing_key() -> None:
    cache: Bounded[str, int] = Bounded(4)
    cache["a"] = 1
    assert cache.get("b") is None
    assert cache.get("b", 7) == 7
    assert cache.pop("a") == 1
    assert cache.pop("a", None) is None
    cache["c"] = 3
    cache.clear()
    assert len(cache) == 0 and list(cache) == []
