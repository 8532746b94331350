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

The reserve
    A seat may also have a reserve for the whole game (``"reserve_s": 60``): it starts to
    run only once a move's own limit is used up, so the turn's deadline is the limit plus
    what is left of the reserve. What a move took of it is written in the same seat entry
    (``"reserve_used_s"``) by the same compare-and-swap UPDATE that appends the move
    (:func:`charge`, called by ``services.apply_action``): like the deadline it is derived
    from stored times, the same in every process. A seat without ``reserve_s`` (a room's
    table, by default) has none. A turn the computer plays once both have run out used up
    the whole reserve, so the seat's later moves have only their own limit.

Who enforces it
    The computer side, so it works across processes: ``services.computers_to_act`` lists
    the seats whose time ran out (:func:`expired_seats`) with the computer seats, and
    ``services.apply_action`` accepts a computer move for them; the sweep
    (``computers.sweep_once``, every ``PLAY_SWEEP_SECONDS`` in every process) hands such a
    game to a driver, and :func:`wake_at_deadline` asks for a driver right at the deadline
    from the process that last saw the game move, so the turn is taken within moments
    rather than at the next sweep. The computer plays the seat at :func:`level`.

The API, in one place::

    seats = clock.with_clock(seats, 20, 60)    # when creating the game (reserve optional)
    clock.limit(game, seat)                    # 20.0, or None
    clock.reserve_left(game, seat)             # 60.0 at first, 0.0 without a reserve
    clock.deadline(game, match)                # aware datetime, or None (reserve included)
    clock.move_deadline(game, match)           # the same without the reserve
    clock.remaining(game, match)               # seconds left (>= 0), or None
    clock.charge(game, match, action, now)     # in apply_action: the seats to write, or None
    clock.expired_seats(game, match)           # seats the computer plays now
    clock.wake_at_deadline(game, match)        # on an event loop, after a move

Everything takes the ``Game`` row and its replayed ``Match`` (``services.current``).
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from rules_engine.state import EXCHANGE

from . import hooks

if TYPE_CHECKING:
    from rules_engine import Action, Match

    from .models import Game

#: The seat entry key of the per-move limit, in seconds.
KEY = "clock_s"
#: Allowed limits: long enough to read the table, short enough to matter.
MIN_SECONDS = 5
MAX_SECONDS = 600
#: The seat entry keys of the reserve for the whole game, and of how much of it is used.
RESERVE_KEY = "reserve_s"
USED_KEY = "reserve_used_s"
MAX_RESERVE_SECONDS = 3600
#: The computer that plays a timed-out turn when the seat names no ``standin_level``.
DEFAULT_LEVEL = "intermediate"


def with_clock(
    seats: Iterable[dict[str, Any]], seconds: int | None, reserve: int = 0
) -> list[dict[str, Any]]:
    """A copy of ``seats`` whose human seats have a ``seconds`` limit per move (none when
    ``seconds`` is falsy) and a ``reserve`` for the whole game (none when 0).

    >>> with_clock([{"kind": "human"}, {"kind": "computer", "level": "beginner"}], 20)
    [{'kind': 'human', 'clock_s': 20}, {'kind': 'computer', 'level': 'beginner'}]
    >>> with_clock([{"kind": "human"}], 30, 60)
    [{'kind': 'human', 'clock_s': 30, 'reserve_s': 60}]
    >>> with_clock([{"kind": "human"}], 0)
    [{'kind': 'human'}]
    """
    if not 0 <= reserve <= MAX_RESERVE_SECONDS:
        raise ValueError(f"a reserve is 0-{MAX_RESERVE_SECONDS} seconds")
    out = []
    for entry in seats:
        entry = dict(entry)
        for key in (KEY, RESERVE_KEY, USED_KEY):
            entry.pop(key, None)
        if seconds and entry.get("kind") == "human":
            if not MIN_SECONDS <= seconds <= MAX_SECONDS:
                raise ValueError(f"a turn clock is {MIN_SECONDS}-{MAX_SECONDS} seconds")
            entry[KEY] = int(seconds)
            if reserve:
                entry[RESERVE_KEY] = int(reserve)
        out.append(entry)
    return out


def limit(game: Game, seat: int) -> float | None:
    """The seat's limit per move in seconds, or None (no clock)."""
    if not 0 <= seat < len(game.seats):
        return None
    value = game.seats[seat].get(KEY)
    return float(value) if isinstance(value, int | float) and value > 0 else None


def reserve_left(game: Game, seat: int) -> float:
    """What is left of the seat's reserve, in seconds (0.0 without one)."""
    if limit(game, seat) is None:
        return 0.0
    entry = game.seats[seat]
    total, used = entry.get(RESERVE_KEY), entry.get(USED_KEY, 0)
    if not isinstance(total, int | float) or total <= 0:
        return 0.0
    used = used if isinstance(used, int | float) else 0
    return max(0.0, float(total) - max(0.0, float(used)))


def charge(
    game: Game, match: Match, action: Action, now: datetime.datetime
) -> list[dict[str, Any]] | None:
    """The seats with what ``action``'s move took of its seat's reserve added (the time
    since the last write beyond the move's limit), to be written with the move; None when
    nothing changes (no reserve, or the move was in time).

    Called by ``services.apply_action`` with the state the move applies to and the time
    it writes as ``Game.updated``; the compare-and-swap on the version makes it exact."""
    seat = action.seat
    # The cheap checks first: most games have no clock, and most clocks no reserve.
    seconds = limit(game, seat) if seat is not None else None
    if seat is None or seconds is None or game.updated is None:
        return None
    left = reserve_left(game, seat)
    if left <= 0 or seat not in seats_to_act(game, match):
        return None
    over = (now - game.updated).total_seconds() - seconds
    if over <= 0:
        return None
    seats = [dict(entry) for entry in game.seats]
    used = float(seats[seat].get(RESERVE_KEY, 0)) - left + min(over, left)
    seats[seat][USED_KEY] = round(used, 1)
    return seats


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


def _clocked(game: Game, match: Match, reserve: bool = True) -> list[tuple[int, float]]:
    """The clocked seats to act, each with its time from the last write (with the reserve
    left, unless ``reserve`` is false)."""
    out = []
    for seat in seats_to_act(game, match):
        seconds = limit(game, seat)
        if seconds is not None:
            out.append((seat, seconds + (reserve_left(game, seat) if reserve else 0.0)))
    return out


def deadline(game: Game, match: Match) -> datetime.datetime | None:
    """When the current turn's time runs out, reserve included (the earliest of the
    clocked seats to act): then the computer plays the turn."""
    clocked = _clocked(game, match)
    if not clocked or game.updated is None:
        return None
    return game.updated + datetime.timedelta(seconds=min(s for _, s in clocked))


def move_deadline(game: Game, match: Match) -> datetime.datetime | None:
    """When the current move's own limit runs out (after it, the reserve runs)."""
    clocked = _clocked(game, match, reserve=False)
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


def wake_at_deadline(
    game: Game, match: Match, *, wake: Callable[[str, int], None] | None = None
) -> None:
    """On an event loop: call ``wake(game id, version)`` (default: ask for a computer
    driver, :func:`services.ensure_driver` through :mod:`.hooks`) when the current turn's
    time runs out.

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
        if wake is not None:
            wake(game_id, version)
        elif hooks.driver is not None:
            hooks.driver(game_id, version, None)

    _TIMERS[game.id] = loop.call_later(delay, fire)
