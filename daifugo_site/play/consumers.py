"""The play page's WebSocket: ``ws/play/<lang>/<game id>/``.

Messages from the page are JSON objects (htmx's ``ws-send`` of a form): ``action`` (play,
pass, give, next; choose and name for a house rule's owed choice), ``cards`` (codes
separated by spaces), ``ranks`` (a name's rank letters), ``shape`` (group or sequence,
for cards that read both ways; not called "form", which would shadow ``HTMLFormElement.form``
in the browser), and ``v``: the table version the page showed. ``v`` is required on every
action: each of them depends on the table (a play or pass on whose turn it is and what lies
on the field, a give on the exchange, a next on the round being over), and the version is
what makes a repeated or late frame refused (``stale``) instead of applied twice.

Thin, as in the Channels tutorial: it reads a message, turns it into an engine
:class:`~rules_engine.Action` for the human seat, hands it to
:func:`~daifugo_site.play.services.submit`, and renders fragments. Every page of the game
joins the game's group, so an accepted action (committed first) reaches all of them.

Hardening (daifugo_site/limits.py): a message is parsed with a bounded size and depth
before anything else, and whatever parsing raises is answered ``malformed``; messages are
rate limited per connection; sockets count against their address and viewer sockets
against the game's viewer cap; a client that does not read is dropped; and ``cleanup``
(leaving the group, giving back the counts) runs however the consumer ends.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from daifugo_site import asyncdb, limits, outage
from rules_engine import Action, CardError, format_cards, parse_cards
from rules_engine.actions import ActionError

from . import hooks, phrases, services
from .presenter import seat_name
from .rendering import render_error, render_table

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_LANGUAGE = 4404
CLOSE_NO_GAME = 4004
#: ``choose`` gives or discards the cards a house rule owes (7渡し, 10捨て); ``name`` names
#: a 12ボンバー's ranks (``ranks``: rank letters separated by spaces).
ACTIONS = ("play", "pass", "give", "next", "choose", "name")
FORMS = ("", "single", "group", "sequence")
#: Kept for callers of the old name; the class lives in daifugo_site/limits.py.
TokenBucket = limits.TokenBucket


def choice_reason(action: Action, reason: str | None) -> str | None:
    """The engine's ``wrong_count`` says of a play that it does not match the field; of a
    house-rule choice, that it is not the number owed (its own sentence)."""
    if reason == "wrong_count" and action.kind in ("choose", "name"):
        return "choice_wrong_count"
    return reason


class GameConsumer(limits.GuardedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    lang: str
    game_id: str
    is_owner: bool
    human_seat: int
    in_group = False
    viewer_held = False
    player: str | None = None
    table: Any = None
    #: The seat whose statistics this page counts (a player's page), or None (a viewer);
    #: whether it counts (the person's switch), and its reports so far (bounded).
    stats_seat: int | None = None
    stats_on = False
    reports = 0
    last_report = 0.0

    async def connect(self) -> None:
        """The guard set-up every game socket shares (the rated game's too): the language,
        the counts, :meth:`admit` (who this page is), then the limits, the group and the
        whole table, and :meth:`joined`."""
        kwargs = self.scope["url_route"]["kwargs"]
        self.lang = kwargs["lang"]
        self.game_id = kwargs["game_id"]
        await self.accept()
        if self.lang not in dict(settings.LANGUAGES):
            await self.close(code=CLOSE_UNKNOWN_LANGUAGE)
            return
        # The counts first: they cost no database work, so a flood of sockets does not either.
        refusal = self.hold_sockets()
        if refusal is not None:
            await self.refuse(refusal)
            return
        if not await self.admit():
            return
        # What this page shows already (fragment keys, and the version they are of):
        # pushes send only what changed.
        self.sent: dict[str, Any] | None = None
        self.sent_version: int | None = None
        self.bucket = limits.TokenBucket(
            settings.PLAY_MESSAGES_PER_SECOND, settings.PLAY_MESSAGE_BURST
        )
        self.last_flood_notice = 0.0
        # Marked first: a cancellation during group_add must still discard (a no-op if
        # the add never happened).
        self.in_group = True
        await self.channel_layer.group_add(services.group_name(self.game_id), self.channel_name)
        # The state may have moved on since the page was rendered: send it whole.
        await self.send_table()
        await self.joined()
        await self.count_connection()

    async def admit(self) -> bool:
        """Who this page is (owner, a room seat, or a viewer within the game's cap); False
        when it was closed instead."""
        game = await asyncdb.call(services.get_game, self.game_id)
        if game is None or services.is_rated(game):
            # A rated game has its own socket for its two players (daifugo_site/rated);
            # here it is no game at all, as its page is to others.
            await self.close(code=CLOSE_NO_GAME)
            return False
        session = self.scope.get("session")
        token = session.get(services.PLAYER_TOKEN_KEY) if session is not None else None
        # A room table (daifugo_site/rooms): each person acts for their own seat.
        seat = services.seat_of(game, token) if token else None
        self.player = token if services.is_table_of_people(game) else None
        self.is_owner = seat is not None
        self.human_seat = seat if seat is not None else game.human_seat
        self.stats_seat = seat
        self.table = None
        if services.is_table_of_people(game) and hooks.people is not None:
            self.table = hooks.people.socket_table(game, seat, token)
            if self.table.hotseat:
                self.is_owner = False  # the curtain first: no hand until "show my hand"
        if not self.is_owner:
            # The owner's own pages always get in; watchers share a cap per game.
            if not limits.acquire("viewers", self.game_id, settings.PLAY_MAX_VIEWERS_PER_GAME):
                await self.refuse("viewers_full")
                return False
            self.viewer_held = True
        return True

    async def count_connection(self) -> None:
        """A player's page (never a viewer's) counts for the anonymous statistics: its
        connection (reconnects), browser and OS family (daifugo_site/accounts/client.py)."""
        client = hooks.page_statistics
        if self.stats_seat is None or client is None:
            return

        agent = dict(self.scope.get("headers") or []).get(b"user-agent", b"")
        session = self.scope.get("session")
        token = session.get(services.PLAYER_TOKEN_KEY) if session is not None else None
        try:
            self.stats_on = await asyncdb.call(
                client.connected,
                self.game_id,
                self.stats_seat,
                agent[: client.UA_MAX_CHARS].decode("latin-1"),
                token,
                self.scope.get("user"),
            )
        except Exception:  # noqa: BLE001 - a statistic never costs a player the table
            log.exception("statistics of a page of game %s not counted", self.game_id)

    async def client_report(self, content: dict[str, Any]) -> None:
        """The page's device class and rendering failures (accounts/client.py): bounded
        per socket, and nothing for a viewer or a person whose statistics are off."""
        client = hooks.page_statistics
        if client is None:
            return
        report = client.parse_report(content)
        if report is None:
            await self.send_error("malformed")
            return
        now = time.monotonic()
        if not self.stats_on:
            return
        if self.reports >= client.REPORTS_PER_CONNECTION:
            return
        if now - self.last_report < client.REPORT_INTERVAL_S:
            return
        self.reports += 1
        self.last_report = now
        await asyncdb.call(client.reported, self.game_id, self.stats_seat, report)

    async def joined(self) -> None:
        """In the group with the whole table sent: presence, and the computers' turn."""
        if self.table is not None:
            await self.table.connected(self)
        services.ensure_driver(self.game_id)

    async def refuse(self, reason: str) -> None:
        """Say why in the page's error region, then close."""
        await self.send_error(reason)
        await self.close(code=limits.CLOSE_TOO_MANY)

    async def cleanup(self) -> None:
        # Runs once however the consumer ends (limits.GuardedSocket), so a crashed or
        # dropped page never stays in the group or holds a viewer place.
        try:
            if getattr(self, "table", None) is not None:
                await self.table.disconnected(self)
        except Exception:  # noqa: BLE001 - the group and counts below must still be left
            log.exception("room presence of game %s not updated", self.game_id)
        try:
            if self.in_group:
                self.in_group = False
                await self.channel_layer.group_discard(
                    services.group_name(self.game_id), self.channel_name
                )
        finally:
            if self.viewer_held:
                self.viewer_held = False
                limits.release("viewers", self.game_id)

    # -- client -> server ------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not hasattr(self, "bucket"):
            return  # connect() refused this socket; it is closing
        if not self.bucket.take():
            now = time.monotonic()
            if now - self.last_flood_notice > 1:
                self.last_flood_notice = now
                await self.send_error("flood")
            return
        try:
            await self.handle(text_data, bytes_data)
        except limits.Malformed as refused:
            await self.send_error(refused.reason)
        except Exception as exc:
            if outage.is_outage(exc):
                # The database is away or slow (issue 43): nothing was applied; say so in
                # the page's language, and the page may try again.
                log.warning("play socket message in game %s: %r", self.game_id, exc)
                await self.send_error(outage.REASON)
                return
            # A bug must not close the page's socket (nor skip its cleanup): log it and
            # answer with the generic refusal.
            log.exception("play socket message failed in game %s", self.game_id)
            await self.send_error("error")

    async def handle(self, text_data: str | None, bytes_data: bytes | None) -> None:
        # Size and depth are checked before parsing, and parsing before the owner check:
        # a viewer's message costs no more than reading it.
        content = limits.parse_message(
            text_data,
            bytes_data,
            max_bytes=settings.PLAY_MAX_MESSAGE_BYTES,
            max_depth=settings.PLAY_MAX_MESSAGE_DEPTH,
        )
        if content.get("action") == "client":
            await self.client_report(content)
            return
        if content.get("action") == "say":
            await self.say(content)
            return
        if self.table is not None and await self.table.handle(self, content):
            return
        if not self.is_owner:
            await self.send_error("not_owner")
            return
        parsed = self.parse_action(content)
        if isinstance(parsed, str):
            await self.send_error(parsed)
            return
        action, version = parsed
        outcome = await services.submit(
            self.game_id, action, by_computer=False, expected_version=version, player=self.player
        )
        if not outcome.accepted:
            await self.send_error(choice_reason(action, outcome.reason))
        elif self.table is None:
            # The mover's page shows its move at once, from this process's copy, rather
            # than after a round trip through the channel layer behind every other
            # game's messages; the group broadcast then finds nothing new to send here.
            await self.send_table(outcome.version)

    # -- quick messages (play/phrases.py) ---------------------------------------------------

    def speaker(self) -> int | None:
        """The seat this page may send quick messages for: a person's own seat at a room's
        table (not a hotseat device, not a viewer); None for every other page."""
        if self.table is None or self.table.hotseat or not self.is_owner:
            return None
        return self.human_seat

    async def say(self, content: dict[str, Any]) -> None:
        """A quick message: only a phrase id; checked and rate-limited per seat, then told
        to every page of the game (nothing is stored, nothing reaches the game)."""
        seat = self.speaker()
        phrase = content.get("phrase")
        reason = phrases.refusal(phrase, self.game_id, seat)
        if reason is not None or seat is None or not isinstance(phrase, str):
            await self.send_error(reason)
            return
        await self.channel_layer.group_send(
            services.group_name(self.game_id), phrases.event(seat, phrase)
        )

    async def table_say(self, event: dict[str, Any]) -> None:
        """Someone at the table said a phrase: a player's page shows it (a viewer's does
        not: the messages are between the people playing)."""
        seat, phrase, n = event.get("seat"), event.get("phrase"), event.get("n")
        if not self.is_owner or not isinstance(seat, int) or not isinstance(phrase, str):
            return
        loaded = services.cached(self.game_id, 0)
        if loaded is None:
            loaded = await asyncdb.call(services.current, self.game_id)
        if loaded is None:
            return
        html = phrases.render_said(
            loaded[0],
            seat,
            phrase,
            self.lang,
            self.human_seat,
            n if isinstance(n, str) else "",
            name=seat_name,
        )
        if html:
            await self.send(text_data=html)

    def parse_action(self, content: dict[str, Any]) -> tuple[Action, int] | str:
        """The action a message asks for and the version it answers, or the reason it
        cannot be read (:class:`~daifugo_site.limits.Malformed` for an unreadable ``v``)."""
        kind = content.get("action")
        if not isinstance(kind, str) or kind not in ACTIONS:
            return "unknown_action"
        version = limits.version_of(content)
        if version is None:
            return "version_required"
        if kind == "next":
            return Action.next_round(), version
        if kind == "pass":
            return Action.pass_(self.human_seat), version
        if kind == "name":
            ranks = content.get("ranks")
            if not isinstance(ranks, str) or not ranks.strip():
                return "choice_wrong_count"
            try:
                return Action.name(self.human_seat, ranks), version
            except ActionError:
                return "not_a_rank"
        cards = content.get("cards")
        if not isinstance(cards, str) or not cards.strip():
            return {"play": "not_a_combination", "give": "bad_exchange"}.get(
                kind, "choice_wrong_count"
            )
        try:
            text = format_cards(parse_cards(cards))
        except CardError:
            return "unknown_card"
        if kind in ("give", "choose"):
            return Action(kind, self.human_seat, text), version
        form = content.get("shape") or ""
        if not isinstance(form, str) or form not in FORMS:
            return "malformed"
        return Action("play", self.human_seat, text, form or None), version

    # -- server -> client ------------------------------------------------------------------

    async def game_update(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        version = version if isinstance(version, int) else None
        news = event.get("news")
        if version is not None and isinstance(news, dict):
            services.learn(self.game_id, version, news)
        if (
            self.table is None
            and version is not None
            and version > 0
            and self.sent_version is not None
            and version <= self.sent_version
        ):
            return  # this page already shows that version (or a later one)
        if self.table is not None and hooks.people is not None:
            if not self.table.hotseat:
                await self.send_table(version)
            await hooks.people.after_update(self, self.table, version)
            return
        await self.send_table(version)

    async def room_presence(self, event: dict[str, Any]) -> None:
        """A room table's seat changed hands or presence (daifugo_site/rooms/socket.py)."""
        if self.table is not None and hooks.people is not None:
            await hooks.people.on_presence(self, self.table)

    async def room_moved(self, event: dict[str, Any]) -> None:
        """The room started its next match: this page goes to its table."""
        if self.table is not None:
            await self.table.send_moved(self, event.get("game"))

    async def game_rebound(self, event: dict[str, Any]) -> None:
        """The game moved to another browser (its resume link): this page may no longer be
        the owner's. Pages that change role start over with the whole table."""
        session = self.scope.get("session")
        token = session.get(services.PLAYER_TOKEN_KEY) if session is not None else None
        if not token:
            return  # a page without a player token was, and stays, a viewer's
        game = await asyncdb.call(services.get_game, self.game_id)
        if game is None:
            return
        is_owner = token == game.owner
        if is_owner != self.is_owner:
            self.is_owner = is_owner
            self.sent, self.sent_version = None, None
            await self.send_table()

    async def send_table(self, version: int | None = None) -> None:
        if self.table is not None and self.table.hotseat:
            await self.table.send_table(self, version)
            return
        # Usually the state (and often the very push, rendered for another page of this
        # game) is in this process's cache: render right here rather than queue behind
        # the database thread.
        args = (self.game_id, self.lang, self.is_owner, version, self.sent)
        # A room table's page renders its own seat (a practice game's, the human seat).
        seat = self.human_seat if self.table is not None and self.is_owner else None
        rendered = render_table(*args, sent_version=self.sent_version, cache_only=True, seat=seat)
        if rendered is None:
            rendered = await asyncdb.call(
                render_table, *args, sent_version=self.sent_version, seat=seat
            )
        if rendered is not None:
            html, self.sent, self.sent_version = rendered
            await self.send(text_data=html)

    async def send_error(self, reason: str | None) -> None:
        await self.send(text_data=render_error(reason, self.lang))
