"""A finished game's replay: every action as a frame, in the viewer's view.

Who sees what (the same rule as at the table, applied after the end):

- a player of the game (the practice game's browser or account; a rated game's two
  accounts) sees every hand at every step, since the game is over;
- anyone else sees only what was public: plays, passes, counts, the narration.

The face-down cards of a rated 1v1 (the 27 not dealt) are in no frame for anyone, not
even the players after the end: they were never in play, and a replay that showed them
would let players learn what the deal kept from them for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from daifugo_site.play.models import Game
from daifugo_site.play.presenter import seat_name
from daifugo_site.ui.narrator import narrate
from rules_engine import card_codes
from rules_engine.effects import visible_to

from .stats import steps

MAX_FRAMES = 2000


@dataclass
class SeatFrame:
    seat: int
    name: str
    count: int
    codes: list[str]  # empty unless the viewer may see this hand


@dataclass
class Frame:
    index: int
    round_no: int
    sentences: list[str]
    field_codes: list[str]
    seats: list[SeatFrame] = field(default_factory=list)


def frames(game: Game, viewer_seat: int | None, all_hands: bool) -> list[Frame]:
    """The replay's frames: the deal, then one per action. ``viewer_seat``: the seat of
    the narration's "you" (None: a viewer of public facts); ``all_hands``: the viewer took
    part, so every hand is shown."""
    names = {s: seat_name(game, s, viewer_seat is not None) for s in range(game.players)}

    def name(seat: int) -> str:
        return names.get(seat, "")

    out: list[Frame] = []
    first = None
    for step in steps(game.record()):
        if first is None:
            first = step.before
            out.append(_frame(0, 1, [], first, all_hands, name))
        seen = visible_to(step.after.effects, viewer_seat if all_hands else None)
        sentences = [event.text for event in narrate(seen, name)]
        out.append(_frame(step.index + 1, step.round_no, sentences, step.after, all_hands, name))
        if len(out) >= MAX_FRAMES:
            break
    return out


def _frame(
    index: int,
    round_no: int,
    sentences: list[str],
    r: Any,
    all_hands: bool,
    name: Any,
) -> Frame:
    top = r.top
    field_codes = card_codes(top.cards) if top is not None else []
    seats = []
    for s, hand in enumerate(r.hands):
        codes = card_codes(hand)
        seats.append(SeatFrame(s, name(s), len(codes), codes if all_hands else []))
    return Frame(index, round_no, sentences, field_codes, seats)
