"""A practice game is its rules, seed, seats and action log.

The live state is never stored: :func:`daifugo_site.play.services.match_of` rebuilds it by
replaying ``actions`` through the engine, so a reload, a reconnect or a restart loses
nothing. ``version`` (the log's length) makes every write a compare-and-swap: an action
computed against an older state is refused instead of overwriting a newer one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

from django.db import models
from django.urls import reverse


def new_game_id() -> str:
    # Unguessable: the URL is shared with nobody, and viewers without the owner's
    # session can only watch.
    return secrets.token_urlsafe(9)


def hash_resume_token(token: str) -> str:
    """What the game stores of its resume link's token (SHA-256, hex): a leaked database
    does not hand out working links. The token is random, so no salt or slow hash is needed."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_seed() -> int:
    return secrets.randbits(48)


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"

    id = models.CharField(primary_key=True, max_length=16, default=new_game_id, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # The browser that created the game (a random token kept in its session): only it acts.
    owner = models.CharField(max_length=64, db_index=True)
    rules = models.JSONField(help_text="RuleSet.to_json(): a preset plus overrides.")
    players = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(default=new_seed)
    # One entry per seat: {"kind": "human"} or {"kind": "computer", "level": "beginner"}.
    seats = models.JSONField()
    human_seat = models.PositiveSmallIntegerField(default=0)
    actions = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)
    # Derivable from the log; kept for listings and the admin.
    scores = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    # Pause before each computer move, so a person can follow the table.
    delay_ms = models.PositiveIntegerField(default=700)
    # The private resume link's token, hashed (see views.resume): whoever opens the link
    # becomes the owner. Empty until the owner's page first shows the link.
    resume_hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return f"game {self.id} ({self.players} players, {self.status})"

    def get_absolute_url(self) -> str:
        return reverse("play:game", args=[self.id])

    def record(self) -> dict[str, Any]:
        """The engine's game record: rules + players + rounds + seed + actions."""
        return {
            "rules": self.rules,
            "players": self.players,
            "rounds": self.rounds,
            "seed": self.seed,
            "actions": self.actions,
        }

    def resume_token_matches(self, token: str) -> bool:
        return bool(self.resume_hash) and hmac.compare_digest(
            self.resume_hash, hash_resume_token(token)
        )

    def computer_level(self, seat: int) -> str | None:
        entry = self.seats[seat]
        return entry.get("level") if entry.get("kind") == "computer" else None


class Appended(models.Func):
    """A JSON array column with one item appended, computed by the database.

    Why: a move used to write the whole log back (``UPDATE ... SET actions = <every action
    so far>``), so the web or computer worker encoded, and PostgreSQL parsed, a few hundred
    actions to add one; the play bench measured that as the largest share of a computer
    worker's CPU per move (issue 43). The write stays a compare-and-swap on ``version``, so
    the array it appends to is exactly the one the move was checked against.

    PostgreSQL (jsonb): ``actions || jsonb_build_array(item)``; SQLite (JSON1):
    ``json_insert(actions, '$[#]', json(item))``. Any other database writes ``fallback``,
    the whole new array, as before.
    """

    output_field = models.JSONField()

    def __init__(self, column: str, item: Any, fallback: list[Any]) -> None:
        super().__init__(models.F(column))
        self.item = json.dumps(item, separators=(",", ":"), ensure_ascii=False)
        self.fallback = fallback

    def as_sql(
        self, compiler: Any, connection: Any, **extra_context: Any
    ) -> tuple[str, tuple[Any, ...]]:
        column, params = compiler.compile(self.source_expressions[0])
        if connection.vendor == "postgresql":
            return f"({column} || jsonb_build_array(%s::jsonb))", (*params, self.item)
        if connection.vendor == "sqlite":
            return f"json_insert({column}, '$[#]', json(%s))", (*params, self.item)
        value = models.Value(self.fallback, output_field=models.JSONField())
        sql, value_params = compiler.compile(value)
        return sql, tuple(value_params)


# The move's write, as SQL built once per database kind (see :func:`write_move`).
_MOVE_SQL: dict[tuple[str, bool], str] = {}


def write_move(old: Game, new: Game, item: Any, seats: list[Any] | None) -> bool:
    """Store the move that took ``old`` to ``new``: ``item`` appended to the log, with the
    version, scores, status, time and (when given) the seats; only if the row is still at
    ``old.version`` and playing. True when it was written.

    One UPDATE ... WHERE version = old (the compare-and-swap), as the ORM's ``update()``
    with :class:`Appended` writes it, but with the statement built once per database kind:
    building it through the ORM on every move was a third of the move's cost to the worker
    that applied it (issue 43). Any database but PostgreSQL and SQLite takes the ORM's way.
    """
    from django.db import connections, router

    connection = connections[router.db_for_write(Game)]
    vendor = connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        return bool(
            Game.objects.filter(pk=old.id, version=old.version, status=Game.Status.PLAYING).update(
                actions=Appended("actions", item, new.actions),
                version=new.version,
                scores=new.scores,
                status=new.status,
                updated=new.updated,
                **({"seats": seats} if seats is not None else {}),
            )
        )
    sql, params = move_statement(connection, old, new, item, seats)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return bool(cursor.rowcount == 1)


def move_statement(
    connection: Any, old: Game, new: Game, item: Any, seats: list[Any] | None
) -> tuple[str, list[Any]]:
    """The UPDATE of :func:`write_move` and its parameters, for ``connection`` (PostgreSQL
    or SQLite): the one statement a move is, whichever way it is sent (a database thread's
    connection, or the event loop's: :func:`write_move_on_loop`)."""
    key = (connection.vendor, seats is not None)
    sql = _MOVE_SQL.get(key)
    if sql is None:
        sql = _MOVE_SQL[key] = _move_sql(connection, *key)
    meta = Game._meta
    params: list[Any] = [
        json.dumps(item, separators=(",", ":"), ensure_ascii=False),
        new.version,
        meta.get_field("scores").get_db_prep_value(new.scores, connection),
        new.status,
        meta.get_field("updated").get_db_prep_value(new.updated, connection),
    ]
    if seats is not None:
        params.append(meta.get_field("seats").get_db_prep_value(seats, connection))
    params += [old.id, old.version, Game.Status.PLAYING]
    return sql, params


async def write_move_on_loop(old: Game, new: Game, item: Any, seats: list[Any] | None) -> bool:
    """:func:`write_move` sent from the event loop on a connection of its own
    (:func:`daifugo_site.asyncdb.execute`: PostgreSQL only), the same statement with the
    same parameters; True when it was written."""
    from django.db import connections, router

    from daifugo_site import asyncdb

    sql, params = move_statement(connections[router.db_for_write(Game)], old, new, item, seats)
    return await asyncdb.execute(sql, params) == 1


def _move_sql(connection: Any, vendor: str, with_seats: bool) -> str:
    quote = connection.ops.quote_name
    meta = Game._meta

    def column(name: str) -> str:
        return quote(meta.get_field(name).column)

    actions = column("actions")
    if vendor == "postgresql":
        appended = f"{actions} || jsonb_build_array(%s::jsonb)"
    else:
        appended = f"json_insert({actions}, '$[#]', json(%s))"
    sets = [f"{actions} = {appended}"]
    sets += [f"{column(name)} = %s" for name in ("version", "scores", "status", "updated")]
    if with_seats:
        sets.append(f"{column('seats')} = %s")
    where = " AND ".join(f"{column(name)} = %s" for name in ("id", "version", "status"))
    return f"UPDATE {quote(meta.db_table)} SET {', '.join(sets)} WHERE {where}"
