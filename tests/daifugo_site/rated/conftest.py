"""Helpers for the rated 1v1's tests: signed-in accounts and their sockets."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from daifugo_site.asgi import application
from tests.daifugo_site.play.conftest import ORIGIN, PlayClient


def account(email: str) -> tuple[Any, str]:
    """A new account and the session key of a browser signed in to it."""
    user = get_user_model().objects.create_user(
        username=email.split("@")[0], email=email, password="a long pass phrase 7"
    )
    client = Client()
    client.force_login(user)
    return user, client.cookies["sessionid"].value


def cookie(session_key: str) -> tuple[bytes, bytes]:
    return (b"cookie", f"sessionid={session_key}".encode())


class RatedClient(PlayClient):
    """The rated game's page: the practice table's reader on the rated socket."""

    def __init__(self, game_id: str, session_key: str | None, lang: str = "zh-hans") -> None:
        super().__init__(game_id, session_key, lang)
        headers = [ORIGIN] + ([cookie(session_key)] if session_key else [])
        self.communicator = WebsocketCommunicator(
            application, f"/ws/rated/{lang}/game/{game_id}/", headers=headers
        )


def queue_socket(session_key: str, lang: str = "zh-hans") -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, f"/ws/rated/{lang}/queue/", headers=[ORIGIN, cookie(session_key)]
    )
