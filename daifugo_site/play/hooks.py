"""What the play app lets the apps built on it plug in.

``play`` is the table every game runs on: practice games here, and the apps above it build
on it (``rooms``: tables of people; ``accounts``: statistics of the pages; ``rated``). It
imports none of them (``.importlinter`` checks it): each registers here, in its
``AppConfig.ready``, what it adds, and play asks through these names. Without an app the
hook is ``None`` and play behaves as a practice-only site would.

- :data:`people`: a table whose seats belong to people (a room's game): who the computer
  plays for now, whether anyone is at the table, the page's context, "play again", and the
  socket's per-page state (presence, the hotseat curtain).
- :data:`page_statistics`: the anonymous statistics of a player's page (its browser family,
  reconnects and rendering reports).
- :data:`driver`: asks for the computer seats of a game to be played (``computers.py``,
  registered by play itself, so that ``services`` does not import its own driver).
- :data:`worker_jobs`: other apps' jobs the computer workers run (a game review).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from rules_engine import Match

    from .models import Game


class PeopleTables(Protocol):
    """A room's table (``daifugo_site.rooms``)."""

    def standins(self, game: Game) -> set[int]:
        """Human seats the computer plays right now (dropped or handed over)."""
        ...

    def anyone_here(self, game: Game) -> bool:
        """Whether any person has a page of the table open (else it waits)."""
        ...

    def moves_on(self, game: Game, match: Match) -> bool:
        """Whether the computer may start the next round itself."""
        ...

    def page_context(self, request: HttpRequest, game: Game, seat: int | None) -> dict[str, Any]:
        """The game page's context for a seat (or a viewer)."""
        ...

    def again(self, request: HttpRequest, game: Game) -> HttpResponse:
        """The game page's "new game" at this table (the room's next match)."""
        ...

    def socket_table(self, game: Game, seat: int | None, player: str | None) -> Any:
        """The per-page state of a socket at this table (``rooms.socket.Table``)."""
        ...

    async def after_update(self, socket: Any, table: Any, version: int | None) -> None: ...

    async def on_presence(self, socket: Any, table: Any) -> None: ...


class PageStatistics(Protocol):
    """The statistics of a player's page (``daifugo_site.accounts.client``)."""

    UA_MAX_CHARS: int
    REPORTS_PER_CONNECTION: int
    REPORT_INTERVAL_S: float

    def connected(
        self, game_id: str, seat: int, agent: str, token: str | None, user: Any
    ) -> bool: ...

    def parse_report(self, content: dict[str, Any]) -> Any: ...

    def reported(self, game_id: str, seat: int, report: Any) -> None: ...


people: PeopleTables | None = None
page_statistics: PageStatistics | None = None
driver: Callable[[str, int | None, dict[str, Any] | None], None] | None = None
#: Messages of other apps that the computer workers run (type -> handler): a game review's
#: job (``review.start``, registered by daifugo_site.review).
worker_jobs: dict[str, Callable[[dict[str, Any]], None]] = {}
