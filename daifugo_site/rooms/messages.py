"""The rooms' refusal sentences (translated), by code.

They join the shared table of ``daifugo_site.limits.MESSAGES`` when the app is ready
(:class:`~daifugo_site.rooms.apps.RoomsConfig`), so the play socket's error region says
them too (``not_your_seat``) without the play app knowing about rooms."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

MESSAGES: dict[str, str | Promise] = {
    "room_closed": _(
        "This room was closed after being left alone for a long time. Its games can still be read."
    ),
    "room_started": _("The game in this room has already started: seats can no longer change."),
    "room_full": _("Every seat in this room is taken. You can still watch."),
    "seat_taken": _("Someone else has just taken that seat. Choose another one."),
    "already_seated": _("You already have a seat in this room."),
    "not_seated": _("You do not have a seat in this room."),
    "not_creator": _("Only the person who created the room can do that."),
    "seats_free": _(
        "Some seats are still free. Wait for more players, or fill them with the computer."
    ),
    "no_such_seat": _("There is no such seat in this room."),
    "not_over": _("The match in this room is not over yet."),
    "no_such_room": _("This room link is not valid. Check it with whoever sent it."),
    "not_your_seat": _("You can only act for your own seat."),
    "curtain": _("Show the hand first: the curtain is down."),
    "rooms_per_hour": _("You have created many rooms in a short time. Try again later."),
}


def message(reason: str) -> str:
    return str(MESSAGES.get(reason, MESSAGES["no_such_room"]))
