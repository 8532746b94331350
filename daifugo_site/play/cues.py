"""Which sounds a push of the table asks for, from what the server says happened.

A push (daifugo_site/play/rendering.py) carries ``data-cues`` on its version mark: the
names of the sounds (``static/sounds/<name>.wav``, made by ``daifugo_site.ui.sounds``) for
what changed since the page's last frame, most telling first; the page plays the first
one, if its switch is on (``static/play/sounds.js``). They are read from the engine's
effects as the log's sentences carry them (``Line.effects``) and from the view's own
"your turn", never guessed in the browser from two states.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules_engine import effects as fx

from .presenter import Event, TableView

#: Sound name for each engine effect kind that has one, most telling first.
BY_EFFECT: tuple[tuple[str, str], ...] = (
    (fx.REVOLUTION, "revolution"),
    (fx.EIGHT_CUT, "cut"),
    (fx.ROUND_OVER, "round"),
)
#: Every name, in the order the page prefers them.
ORDER = ("revolution", "cut", "round", "turn", "play")


def new_events(view: TableView, sent: dict[str, Any] | None) -> list[Event]:
    """The log's sentences the page has not had yet (none for a first frame: a page that
    just opened plays nothing)."""
    if sent is None:
        return []
    old_round, old_len = sent["log"]
    if old_round != view.round_no:
        return list(view.log)
    return list(view.log[old_len:]) if old_len <= len(view.log) else []


def cues(view: TableView, sent: dict[str, Any] | None) -> list[str]:
    """The sounds for this push, most telling first (empty for a first frame)."""
    if sent is None:
        return []
    return for_events(new_events(view, sent), turn=view.your_turn and not sent["hand"][1])


def for_events(events: Iterable[Event], *, turn: bool = False) -> list[str]:
    kinds = {kind for event in events for kind in event.effects}
    found = {name for kind, name in BY_EFFECT if kind in kinds}
    if turn:
        found.add("turn")
    if fx.PLAYED in kinds:
        found.add("play")
    return [name for name in ORDER if name in found]
