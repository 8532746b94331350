"""The turn clock: a per-move time limit; when it runs out, the computer plays that turn.

Where the limit lives
    In the game's seat entries: ``{"kind": "human", ..., "clock_s": 20}`` limits that
    seat's moves to 20 seconds. Seats are fixed when a game is created, so the limit is
    too (:func:`with_clock` adds it to a list of seats); a game without ``clock_s`` has no
    clock and costs nothing here.

Where the deadline lives
    With the game's version: the deadline of the current turn is ``Game.updated`` (written
    by the same compare-and-swap UPDATE that appended the last action, see
    ``services.apply_action``) plus the limit of the seat to act. Every process reads the
    same deadline from the same row, nothing is written to start or stop a clock, and a
    move restarts it by itself. While a computer seat (or nobody) is to act, no clock runs.

Who enforces it
    The computer side, so it works across processes: ``services.computers_to_act`` lists
    the seats whose time ran out (:func:`expired_seats`) with the computer seats, and
    ``services.apply_action`` accepts a computer move for them; the sweep
    (``computers.sweep_once``, every ``PLAY_SWEEP_SECONDS`` in every process) hands such a
    game to a driver, and :func:`wake_at_deadline` asks for a driver right at the deadline
    from the process that last saw the game move, so the turn is taken within moments
    rather than at the next sweep. The computer plays the seat at :func:`level`.

The API, in one place::

    seats = clock.with_clock(seats, 20)        # when creating the game
    clock.limit(game, seat)                    # 20.0, or None
    clock.deadline(game, match)                # aware datetime, or None
    clock.remaining(game, match)               # seconds left (>= 0), or None
    clock.expired_seats(game, match)           # seats the computer plays now
    clock.wake_at_deadline(game, match)        # on an event loop, after a move

Everything takes the ``Game`` row and its replayed ``Match`` (``services.current``).
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from rules_engine.state import EXCHANGE

if TYPE_CHECKING:
    from rules_engine import Match

    from .models import Game

#: The seat entry key of the per-move limit, in seconds.
KEY = "clock_s"
#: Allowed limits: long enough to read the table, short enough to matter.
MIN_SECONDS = 5
MAX_SECONDS = 600
#: The computer that plays a timed-out turn when the seat names no ``standin_level``.
DEFAULT_LEVEL = "intermediate"


def with_clock(seats: Iterable[dict[str, Any]], seconds: int | None) -> list[dict[str, Any]]:
    """A copy of ``seats`` whose human seats have a ``seconds`` limit per move (none when
    ``seconds`` is falsy).

    >>> with_clock([{"kind": "human"}, {"kind": "computer", "level": "beginner"}], 20)
    [{'kind': 'human', 'clock_s': 20}, {'kind': 'computer', 'level': 'beginner'}]
    >>> with_clock([{"kind": "human"}], 0)
    [{'kind': 'human'}]
    """
    out = []
    for entry in seats:
        entry = dict(entry)
        entry.pop(KEY, None)
        if seconds and entry.get("kind") == "human":
            if not MIN_SECONDS <= seconds <= MAX_SECONDS:
                raise ValueError(f"a turn clock is {MIN_SECONDS}-{MAX_SECONDS} seconds")
            entry[KEY] = int(seconds)
        out.append(entry)
    return out


def limit(game: Game, seat: int) -> float | None:
    """The seat's limit per move in seconds, or None (no clock)."""
    if not 0 <= seat < len(game.seats):
        return None
    value = game.seats[seat].get(KEY)
    return float(value) if isinstance(value, int | float) and value > 0 else None


def level(game: Game, seat: int) -> str:
    """The computer level that plays the seat's timed-out turns."""
    return str(game.seats[seat].get("standin_level") or DEFAULT_LEVEL)


def seats_to_act(game: Game, match: Match) -> list[int]:
    """The seats the table waits on now: the one to play, or every seat that owes cards in
    the exchange; none when the round is over."""
    r = match.round
    if r.over:
        return []
    if r.phase == EXCHANGE:
        return [s for s in range(game.players) if r.owed[s]]
    return [r.to_act] if 0 <= r.to_act < game.players else []


def _clocked(game: Game, match: Match) -> list[tuple[int, float]]:
    out = []
    for seat in seats_to_act(game, match):
        seconds = limit(game, seat)
        if seconds is not None:
            out.append((seat, seconds))
    return out


def deadline(game: Game, match: Match) -> datetime.datetime | None:
    """When the current turn's time runs out (the earliest of the clocked seats to act)."""
    clocked = _clocked(game, match)
    if not clocked or game.updated is None:
        return None
    return game.updated + datetime.timedelta(seconds=min(s for _, s in clocked))


def remaining(game: Game, match: Match, now: datetime.datetime | None = None) -> float | None:
    """Seconds left on the current turn's clock (0 once run out), or None."""
    end = deadline(game, match)
    if end is None:
        return None
    return max(0.0, (end - (now or timezone.now())).total_seconds())


def expired_seats(game: Game, match: Match, now: datetime.datetime | None = None) -> list[int]:
    """The seats to act whose time has run out: the computer plays their turn now."""
    clocked = _clocked(game, match)
    if not clocked or game.updated is None:
        return []
    now = now or timezone.now()
    return [
        seat
        for seat, seconds in clocked
        if game.updated + datetime.timedelta(seconds=seconds) <= now
    ]


# -- waking a driver at the deadline --------------------------------------------------------

# One timer per game in this process (the newest deadline replaces an older one), bounded.
_TIMERS: dict[str, asyncio.TimerHandle] = {}
_TIMERS_MAX = 10_000


def wake_at_deadline(game: Game, match: Match) -> None:
    """On an event loop: ask for a computer driver when the current turn's time runs out.

    Only a shortcut (the sweep finds the same turn anyway): the driver re-reads the game,
    so a timer for a turn that has since been played changes nothing."""
    end = deadline(game, match)
    old = _TIMERS.pop(game.id, None)
    if old is not None:
        old.cancel()
    if end is None:
        return
    loop = asyncio.get_running_loop()
    if len(_TIMERS) >= _TIMERS_MAX:
        return
    delay = max(0.0, (end - timezone.now()).total_seconds()) + 0.05
    game_id, version = game.id, game.version

    def fire() -> None:
        _TIMERS.pop(game_id, None)
        from . import services

        services.ensure_driver(game_id, version)

    _TIMERS[game.id] = loop.call_later(delay, fire)
