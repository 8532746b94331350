from typing import Any

from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "daifugo_site.rooms"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The play socket's error region says the rooms' refusals too.
        from daifugo_site import limits

        from .messages import MESSAGES

        for code, text in MESSAGES.items():
            limits.MESSAGES.setdefault(code, text)
        # A room's game is a table of people on the play app's table.
        from daifugo_site.play import hooks

        from .plug import RoomTables

        hooks.people = RoomTables()

    def stale_querysets(self) -> dict[str, Any]:
        """What ``manage.py purge`` deletes: open-page rows of room seats that no live
        worker renews (a worker killed mid-game)."""
        from .presence import dead_connections

        return {"dead room connections": dead_connections()}
