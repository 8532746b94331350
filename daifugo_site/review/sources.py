"""Which games may be reviewed, by whom, and where hints are allowed.

Practice games (``play.Game``) are the only games today. Rooms and rated games will add
their own :class:`Source`: the review, the hint and the puzzle code only ever ask these
questions, so a new kind of game plugs in here without touching them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from daifugo_site.play import services as play_services
from daifugo_site.play.models import Game


@dataclass(frozen=True)
class Source:
    """A game as the review sees it."""

    game: Game
    #: The seat reviewed or hinted (the viewer's own).
    seat: int
    #: A practice game: hints allowed (never in rated games or rooms where the others did
    #: not agree).
    practice: bool

    @property
    def finished(self) -> bool:
        return self.game.status == Game.Status.FINISHED

    def record(self) -> dict[str, Any]:
        return self.game.record()


def for_viewer(game_id: str, session: Any) -> Source | None:
    """The game as ``session``'s player sees it, or None when it is not theirs: only the
    player who sat at the table may review it (their own decisions, from their own view)."""
    game = play_services.get_game(game_id)
    if game is None:
        return None
    token = session.get(play_services.PLAYER_TOKEN_KEY)
    if not token or token != game.owner:
        return None
    return Source(game=game, seat=game.human_seat, practice=True)
