"""What a room's table adds to the play app, registered in :mod:`daifugo_site.play.hooks`
by ``RoomsConfig.ready`` (play imports nothing of rooms)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from daifugo_site.play.models import Game
    from rules_engine import Match


class RoomTables:
    """``hooks.PeopleTables`` for rooms: presence (``presence.py``), the page
    (``views.py``) and the socket's per-page state (``socket.py``)."""

    def standins(self, game: Game) -> set[int]:
        from . import presence

        return presence.standins(game)

    def anyone_here(self, game: Game) -> bool:
        from . import presence

        return presence.anyone_here(game)

    def moves_on(self, game: Game, match: Match) -> bool:
        from . import presence

        return presence.moves_on(game, match)

    def page_context(self, request: HttpRequest, game: Game, seat: int | None) -> dict[str, Any]:
        from .views import table_context

        return table_context(request, game, seat)

    def again(self, request: HttpRequest, game: Game) -> HttpResponse:
        from .views import again_from_game

        return again_from_game(request, game)

    def socket_table(self, game: Game, seat: int | None, player: str | None) -> Any:
        from .socket import Table

        return Table(game, seat, player)

    async def after_update(self, socket: Any, table: Any, version: int | None) -> None:
        from . import socket as room_socket

        await room_socket.after_update(socket, table, version)

    async def on_presence(self, socket: Any, table: Any) -> None:
        from . import socket as room_socket

        await room_socket.on_presence(socket, table)
