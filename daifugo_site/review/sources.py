"""Which games may be reviewed, by whom, and where hints are allowed.

Three kinds of game are ``play.Game`` rows:

- a practice game: its owner (the session's player token) reviews the human seat and may
  ask for hints while playing;
- a room's game (``play.services.is_table_of_people``): each person reviews the seat their
  player token took; no hints (the other people at the table never agreed to them);
- a rated 1v1 (``rated.RatedGame`` beside the game): each of the two accounts reviews its
  own seat, once the rated game is over (never during it); no hints.

The review, the hint and the puzzle code only ever ask these questions, so another kind of
game plugs in here without touching them.
"""

from __future__ import annotations

from collections.abc import Callable
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
    #: Whether the game is over for the review's purpose (None: the game's own status).
    over: bool | None = None

    @property
    def finished(self) -> bool:
        if self.over is not None:
            return self.over
        return self.game.status == Game.Status.FINISHED

    def record(self) -> dict[str, Any]:
        return self.game.record()


#: A rated game's seats, registered by daifugo_site.rated (its AppConfig.ready; review
#: imports nothing of rated): for a rated game (its row, the viewer's user) the viewer's
#: seat (None: not a player) and whether it is over; None for a game that is not rated.
rated_seat: Callable[[Game, Any], tuple[int | None, bool] | None] | None = None


def hints_offered(game: Game) -> bool:
    """Whether the game's pages offer the hint button: practice games only, decided from the
    row alone (no query: the hand partial is rendered on the event loop). The hint view
    asks :func:`for_viewer` again, which reads the rated table itself."""
    return not (play_services.is_rated(game) or play_services.is_table_of_people(game))


def for_viewer(game_id: str, session: Any, user: Any = None) -> Source | None:
    """The game as this viewer (``session``'s player token, ``user`` when signed in) sees
    it, or None when they did not play in it: only a player who sat at the table may
    review it (their own decisions, from their own view)."""
    game = play_services.get_game(game_id)
    if game is None:
        return None
    rated = rated_seat(game, user) if rated_seat is not None else None
    if rated is not None:
        seat, over = rated
        if seat is None:
            return None
        return Source(game, seat, False, over=over)
    token = session.get(play_services.PLAYER_TOKEN_KEY)
    if not token:
        return None
    if play_services.is_table_of_people(game):
        seat = play_services.seat_of(game, token)
        return None if seat is None else Source(game, seat, False)
    if token != game.owner:
        return None
    return Source(game=game, seat=game.human_seat, practice=True)
