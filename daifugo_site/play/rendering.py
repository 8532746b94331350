"""HTML for the play page: the same template partials serve the first page load and every
WebSocket push (the django-htmx example app's pattern). The fragments nearly every move
pushes are Jinja2 macros (jinja2/play/table.html), the page includes them with
``{% fragment %}``; the rest are play/game.html's partials.

A push is the page's fragments, each with an ``id`` and ``hx-swap-oob``, so htmx's
WebSocket extension swaps each into place; the announcement goes into the layout's
``aria-live`` region.
"""

from __future__ import annotations

import threading
from typing import Any, NamedTuple

from django.template.loader import render_to_string
from django.utils import translation

from daifugo_site import limits
from daifugo_site.bounded import Bounded
from daifugo_site.ui import language
from daifugo_site.ui.jinja import macro
from daifugo_site.ui.templatetags.table import seat_places

from . import cues, services
from .presenter import TableView, table_view

#: The partials of play/game.html that a push may replace, in page order.
FRAGMENTS = (
    "status",
    "seats",
    "field",
    "felt_house",
    "summary",
    "house",
    "exchange",
    "hand",
    "results",
)
#: The fragments of the house rules (RULES.md section 8) live in their own template.
TEMPLATES = {"felt_house": "play/_house.html", "house": "play/_house.html"}
#: The fragments nearly every move pushes are Jinja2 macros (daifugo_site/ui/jinja.py says
#: why), in this template; the others are play/game.html's (or TEMPLATES') partials.
TABLE = "play/table.html"
MACROS = frozenset({"status", "seats", "field", "summary", "hand"})


def _macro(name: str, *args: Any, **kwargs: Any) -> str:
    return str(macro(TABLE, name)(*args, **kwargs))


# Pushes already rendered in this process, shared by every page of a game: 1,000 viewers of
# one game cost one rendering per version, not 1,000. The key is (game id, version shown,
# version the page had before, language, owner or viewer): a game's version never changes
# once written (the log only grows, every write is a compare-and-swap on the version), so
# an entry is correct forever and would be in any process; the bound (LRU) only limits
# memory (with an idle bound: a push is only ever asked for again within moments of its
# move). The owner's renderings (with the hand) are keyed apart from the viewers'.
_RENDERED: Bounded[tuple[Any, ...], tuple[str, dict[str, Any], int]] = Bounded(512, idle_s=60.0)
_RENDERED_LOCK = threading.Lock()


def _remembered(key: tuple[Any, ...]) -> tuple[str, dict[str, Any], int] | None:
    with _RENDERED_LOCK:
        return _RENDERED.get(key)


def _remember(key: tuple[Any, ...], value: tuple[str, dict[str, Any], int]) -> None:
    with _RENDERED_LOCK:
        _RENDERED[key] = value


def view_for(
    game_id: str, is_owner: bool, min_version: int | None = None, *, cache_only: bool = False
) -> TableView | None:
    if cache_only:
        loaded = services.cached(game_id, min_version) if min_version is not None else None
    else:
        loaded = services.current(game_id, min_version)
    if loaded is None:
        return None
    game, match = loaded
    return table_view(game, match, is_owner=is_owner)


class ExchangeKey(NamedTuple):
    """What the exchange section shows; its cards are read by name (which rows are new)."""

    phase: str
    owe: int
    gave: tuple[str, ...]
    got: tuple[str, ...]
    partner: str
    # The give form carries the version while a return is owed.
    version: int | None


def _values(row: object) -> tuple[Any, ...]:
    # A flat dataclass's field values (dataclasses.astuple deep-copies, which costs).
    return tuple(vars(row).values())


def fragment_keys(view: TableView) -> dict[str, Any]:
    """What each fragment shows: a fragment whose key did not change is not sent again.

    Besides the fragments' own keys: ``seat_frame`` (how many seats, which one is the
    viewer's: where each seat sits on the felt) and the summary's two parts, so that a push
    can carry only the seats, or only the part of the summary, that changed
    (:func:`fragment_parts`)."""
    seats = tuple(_values(seat) for seat in view.seats)
    field = (tuple(view.field_codes), view.field_name)
    return {
        "seat_frame": (
            len(view.seats),
            next((i for i, seat in enumerate(view.seats) if seat.is_you), None),
        ),
        "summary_field": field,
        "summary_players": seats,
        "status": (
            view.round_no,
            view.rounds,
            view.revolution,
            view.jback,
            tuple(view.lock_suits),
            view.number_lock,
        ),
        "seats": seats,
        "field": field,
        # The house rules: the direction drawn and the cards discarded face up; in the
        # panel, the same said, and the choice owed.
        "felt_house": (view.direction, tuple(view.discarded_codes)),
        "house": (view.direction, tuple(view.discarded_codes), view.owed, view.owed_text),
        # The keyboard panel's words for the seats and the field (the play beneath the top
        # one changes only when the top one does).
        "summary": (seats, field),
        "exchange": ExchangeKey(
            view.phase,
            view.owe,
            tuple(view.gave_codes),
            tuple(view.got_codes),
            view.partner_name,
            view.version if view.owe else None,
        ),
        # The play and pass forms carry the version only while it is the player's turn.
        "hand": (
            tuple(view.hand_codes),
            view.your_turn,
            view.legal_json,
            view.can_pass,
            view.owe,
            view.owed,
            view.choice_prompt,
            view.version if view.your_turn else None,
        ),
        "results": (
            view.round_over,
            view.match_over,
            tuple(_values(row) for row in view.results),
            tuple(_values(row) for row in view.standings),
            # The next-round form carries the version.
            view.version if view.round_over else None,
        ),
        "log": (view.round_no, len(view.log)),
    }


def render_table(
    game_id: str,
    lang: str,
    is_owner: bool,
    min_version: int | None = None,
    sent: dict[str, Any] | None = None,
    *,
    sent_version: int | None = None,
    cache_only: bool = False,
    seat: int | None = None,
) -> tuple[str, dict[str, Any], int] | None:
    """The fragments of the table that changed since ``sent`` (all of them when ``sent`` is
    None), out-of-band, in ``lang``; with the new keys and their version, to pass back as
    ``sent`` and ``sent_version`` next time.

    The round's log grows by appending only its new lines. With ``cache_only`` it touches
    no database (None when the cache is older than ``min_version``), so the consumer can
    render on the event loop instead of hopping to the database thread.
    """
    if cache_only:
        loaded = services.cached(game_id, min_version) if min_version is not None else None
    else:
        loaded = services.current(game_id, min_version)
    if loaded is None:
        return None
    game, match = loaded
    key: tuple[Any, ...] | None = None
    if sent is None or sent_version is not None:
        key = (
            game_id,
            game.version,
            sent_version if sent is not None else None,
            lang,
            is_owner,
            seat,
        )
        found = _remembered(key)
        if found is not None:
            return found
    with language.rendering_in(lang):
        # ``seat`` only for a room table's page: a practice game's owner is its human seat.
        extra = {"seat": seat} if seat is not None else {}
        view = table_view(game, match, is_owner=is_owner, **extra)
        html, keys = _render(view, sent)
    result = (html, keys, game.version)
    if key is not None:
        _remember(key, result)
    return result


def _render(view: TableView, sent: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    keys = fragment_keys(view)
    context: dict[str, Any] = {"view": view, "oob": True, **_exchange_news(keys, sent)}
    parts = [version_mark(view, sent)]
    for name in FRAGMENTS:
        parts.extend(fragment_parts(name, keys, sent, context))
    parts.extend(log_parts(view, keys, sent, context))
    if sent is None:
        parts.append(render_to_string("play/game.html#error", {"oob": True, "error": ""}))
    return "".join(parts), keys


def fragment_parts(
    name: str, keys: dict[str, Any], sent: dict[str, Any] | None, context: dict[str, Any]
) -> list[str]:
    """The push of fragment ``name``: nothing when its key did not change, else the whole
    fragment, except that the seats and the summary send only what changed while the seats
    keep their places. A move changes one or two seats (the mover's count, whose turn it
    is) and a pass leaves the field as it was: the phone receives, and the browser swaps,
    those alone (and the server renders them alone)."""
    if sent is not None and sent.get(name) == keys[name]:
        return []
    view: TableView = context["view"]
    if name not in MACROS:
        template = TEMPLATES.get(name, "play/game.html")
        return [render_to_string(f"{template}#{name}", context)]
    if sent is None or sent.get("seat_frame") != keys["seat_frame"]:
        return [_macro(name, view, oob=context["oob"])]
    if name == "seats":
        places = seat_places(view.seats)
        old = sent["seats"]
        return [
            _macro("seat", view, seat, places[seat.seat], one=True)
            for seat, new, before in zip(view.seats, keys["seats"], old, strict=True)
            if new != before
        ]
    if name == "summary":
        return [
            _macro(part, view, one=True)
            for part in ("summary_field", "summary_players")
            if sent.get(part) != keys[part]
        ]
    return [_macro(name, view, oob=context["oob"])]


def version_mark(view: TableView, sent: dict[str, Any] | None) -> str:
    """The table's version mark, with the sounds this push asks for (play/cues.py)."""
    said = " ".join(cues.cues(view, sent))
    return (
        f'<div id="table-version" data-version="{view.version}" data-cues="{said}" hidden '
        'hx-swap-oob="true"></div>'
    )


def log_parts(
    view: TableView, keys: dict[str, Any], sent: dict[str, Any] | None, context: dict[str, Any]
) -> list[str]:
    """The log's push: whole for a first frame or a new round, else only its new lines
    appended, so that what the page added between them (the table's quick messages,
    daifugo_site/play/phrases.py) stays where it was said. The first line of a round
    appends too: the "nothing yet" line is hidden by the style sheet once it has company."""
    parts = []
    old_round, old_len = sent["log"] if sent is not None else (None, 0)
    if sent is None or old_round != view.round_no or old_len > len(view.log):
        parts.append(_macro("log", view, oob=True))
    elif old_len < len(view.log):
        parts.append(_macro("log_append", view.log[old_len:]))
    if sent is None or keys["log"] != sent["log"]:
        parts.append(_macro("announce", view))
    return parts


def _exchange_news(keys: dict[str, Any], sent: dict[str, Any] | None) -> dict[str, bool]:
    """Which of the exchange's rows of cards the page has not shown yet (they fly in).

    The section is sent again whenever its key changes, the phase included, so without this
    the cards the player already saw would fly in again when the exchange ends. A page's
    first rendering (``sent`` None) animates nothing: the first view is not animated in.
    """
    if sent is None:
        return {"gave_new": False, "got_new": False}
    new: ExchangeKey = keys["exchange"]
    old: ExchangeKey = sent["exchange"]
    return {
        "gave_new": bool(new.gave) and new.gave != old.gave,
        "got_new": bool(new.got) and new.got != old.got,
    }


def render_error(reason: str | None, lang: str) -> str:
    """The error region with the reason's sentence (announced: it is role=alert)."""
    with translation.override(lang):
        return render_to_string(
            "play/game.html#error",
            {"oob": True, "error": limits.message(reason), "reason": reason},
        )
