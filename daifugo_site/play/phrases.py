"""Quick messages at a table of people (a room's non-hotseat table, a rated 1v1).

A fixed set of translated phrases, no free text (nothing to moderate): the page sends only
a phrase id (``{"action": "say", "phrase": "hello"}``); the socket checks the id and the
seat's rate (:func:`refusal`) and tells the game's group (``table.say``); each page renders
the phrase in its own language (:func:`render_said`): on the sender's seat plate for a
moment, as a line of the log marked as a message, and in a polite live region
(``static/play/quick.js``; the receiver's switch hides them there).

Nothing is stored on the server: a message is not part of the game (the game stays its
rules, seed and action log) and carries no card. Each page keeps at most
:data:`KEPT_PER_PAGE` message lines in its log.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from daifugo_site import limits

from .models import Game

#: id -> phrase, in the picker's order.
PHRASES: dict[str, Promise] = {
    "hello": pgettext_lazy("quick message", "Hello!"),
    "good_luck": pgettext_lazy("quick message", "Good luck!"),
    "nice": pgettext_lazy("quick message", "Nice move!"),
    "moment": pgettext_lazy("quick message", "One moment, please."),
    "thanks": pgettext_lazy("quick message", "Thank you!"),
    "sorry": pgettext_lazy("quick message", "Sorry!"),
    "good_game": pgettext_lazy("quick message", "Good game!"),
}

#: Refusals (joined to ``limits.MESSAGES`` by ``PlayConfig.ready``).
MESSAGES: dict[str, str | Promise] = {
    "no_such_phrase": _("That quick message does not exist. Choose one of the buttons."),
    "say_too_soon": _("Wait a few seconds before sending another quick message."),
    "say_per_minute": _(
        "You have sent many quick messages in the last minute. Wait a little, then try again."
    ),
    "no_quick_messages": _("Quick messages are only for players at a table with other people."),
}

#: Message lines one page keeps in its log (the page drops older ones).
KEPT_PER_PAGE = 20


def gap_seconds() -> int:
    return int(getattr(settings, "PLAY_SAY_GAP_S", 3))


def per_minute() -> int:
    return int(getattr(settings, "PLAY_SAY_PER_MINUTE", 10))


def offered(game: Game, is_owner: bool) -> bool:
    """Whether this page's person may send quick messages: a player (not a viewer) at a
    table of people (a room's, or a rated game), not a hotseat device (one screen, no one
    to send to) nor a practice game (only computers)."""
    from .services import is_rated, is_table_of_people

    if not is_owner or any(e.get("hotseat") for e in game.seats):
        return False
    return is_rated(game) or is_table_of_people(game)


def refusal(phrase: object, game_id: str, seat: int | None) -> str | None:
    """Why this message is not sent (a reason code), or None: it is, and it was counted.

    The id first (an unknown one costs no count), then the seat's windows in the limits'
    shared cache, so every process of the site counts a seat's messages together: at most
    one every ``PLAY_SAY_GAP_S`` seconds and ``PLAY_SAY_PER_MINUTE`` a minute."""
    if seat is None:
        return "no_quick_messages"
    if not isinstance(phrase, str) or phrase not in PHRASES:
        return "no_such_phrase"
    ident = f"{game_id}:{seat}"
    if not limits.take_window("say-gap", ident, 1, gap_seconds()):
        return "say_too_soon"
    if not limits.take_window("say-minute", ident, per_minute(), 60):
        return "say_per_minute"
    return None


def event(seat: int, phrase: str) -> dict[str, Any]:
    """The group message that carries a quick message: a seat and a phrase id (and a
    mark telling this message from the same phrase said again), nothing else."""
    return {"type": "table.say", "seat": seat, "phrase": phrase, "n": uuid.uuid4().hex[:12]}


def render_said(
    game: Game,
    seat: int,
    phrase: str,
    lang: str,
    viewer: int | None,
    n: str = "",
    *,
    name: Callable[[Game, int, bool, int | None], str],
) -> str:
    """A quick message for one page (``viewer``: its seat, None for a watcher): a log line
    appended to the log and the mark that the page shows on the seat and announces.
    ``name`` is the presenter's ``seat_name`` (passed in: the presenter offers the picker,
    so this module does not import it back)."""
    if phrase not in PHRASES or not 0 <= seat < len(game.seats):
        return ""
    with translation.override(lang):
        who = name(game, seat, viewer is not None, viewer)
        text = str(PHRASES[phrase])
        return render_to_string(
            "play/_quick.html#said",
            {
                "seat": seat,
                "phrase": phrase,
                "text": text,
                "name": who,
                "mine": seat == viewer,
                "n": n,
            },
        )
