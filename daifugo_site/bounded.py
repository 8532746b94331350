"""A per-process cache bounded in entries and in idle time.

Why both: the play page's caches (the replayed games, their described rounds, rendered
pushes, memoised fragments) were bounded by count only, so over a long session they filled
up to their caps with games that had ended long before: the soak (``python -m
daifugo_site.play.soak``) measured every web worker growing by about 1 MB each 30 s for
the first twenty minutes (issue 43). With an idle bound, what nobody has touched for
``idle_s`` seconds goes, and a process's memory follows the games in play instead of the
games it has ever seen.

Not thread-safe on its own: the callers hold their own lock around it (they already need
one for their read-check-write steps).

>>> now = [0.0]
>>> cache = Bounded(2, idle_s=10, clock=lambda: now[0])
>>> cache["a"] = 1; cache["b"] = 2; cache["c"] = 3   # the least recently used goes
>>> sorted(cache.keys())
['b', 'c']
>>> now[0] = 5.0; cache.get("b")                      # touched: kept longer
2
>>> now[0] = 12.0; cache["d"] = 4                     # "c" idle for 12 s: gone
>>> sorted(cache.keys())
['b', 'd']
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """At most ``size`` entries, least recently used first out; entries not read or written
    for ``idle_s`` seconds are dropped at the next write (None: no idle bound)."""

    def __init__(
        self,
        size: int,
        idle_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.size = size
        self.idle_s = idle_s
        self._clock = clock
        # key -> (value, last touched); in order of last touch, oldest first.
        self._entries: OrderedDict[K, tuple[V, float]] = OrderedDict()

    def get(self, key: K, default: V | None = None) -> V | None:
        found = self._entries.get(key)
        if found is None:
            return default
        self._entries[key] = (found[0], self._clock())
        self._entries.move_to_end(key)
        return found[0]

    def __setitem__(self, key: K, value: V) -> None:
        now = self._clock()
        self._entries[key] = (value, now)
        self._entries.move_to_end(key)
        self._trim(now)

    def _trim(self, now: float) -> None:
        entries = self._entries
        while len(entries) > max(self.size, 0):
            entries.popitem(last=False)
        if self.idle_s is not None:
            oldest = now - self.idle_s
            while entries:
                first = next(iter(entries.values()))
                if first[1] >= oldest:
                    break
                entries.popitem(last=False)

    def pop(self, key: K, default: V | None = None) -> V | None:
        found = self._entries.pop(key, None)
        return default if found is None else found[0]

    def clear(self) -> None:
        self._entries.clear()

    def keys(self) -> list[K]:
        return list(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[K]:
        return iter(list(self._entries))
