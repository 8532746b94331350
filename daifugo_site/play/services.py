"""The one way an action reaches a game: check, apply through the engine, save, broadcast.

Humans (through the consumer) and computer seats (through :func:`drive_computers`) both
call :func:`apply_action`; nothing else decides legality. The consumer stays thin: it
parses messages and renders, and asks this module for everything else.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from daifugo_site import asyncdb
from daifugo_site.bounded import Bounded
from rules_engine import Action, Match, Refusal, RuleSet
from rules_engine.state import EXCHANGE

from . import clock, hooks
from .models import Game, write_move, write_move_on_loop

log = logging.getLogger(__name__)

LEVELS = ("beginner", "intermediate", "advanced")

# -- the live state, rebuilt from the log -----------------------------------------------

# Per process: the latest game row seen and its replayed match, by game id. With several
# web workers and computer workers (issue 12) another process may have moved the game on
# since this copy was cached, so the cache is only ever a read-through keyed by a version
# confirmed elsewhere, never a source of "the newest state":
# - ``cached(id, v)`` / ``current(id, v)`` answer from the cache only for a caller that
#   names the version it needs (a broadcast's committed version, the version a page
#   showed); a cached copy at least that new is exactly the state of that version (the
#   log is append-only), and a newer committed version is announced by its own broadcast.
# - ``current(id)`` without a version always reads the database (then replays
#   incrementally from the cached match when the cached log is a prefix).
# - every write is a compare-and-swap on ``version`` in the database: an action checked
#   against a cached state that another worker has since moved on fails as "stale" and
#   changes nothing. So a stale entry can cost a retry, never a lost or shadowed write.
# Bounded in entries and in idle time (daifugo_site/bounded.py): a game nobody has moved
# or shown for CACHE_IDLE_S is read again from the database if it ever comes back, so a
# long-lived worker holds the games in play, not every game it has seen (issue 43).
_CACHE_SIZE = 1024
CACHE_IDLE_S = 120.0
_CACHE: Bounded[str, tuple[Game, Match]] = Bounded(_CACHE_SIZE, CACHE_IDLE_S)
_CACHE_LOCK = threading.Lock()


def match_of(game: Game) -> Match:
    """The game's match, replayed from its log (incrementally when an older one is cached)."""
    with _CACHE_LOCK:
        cached = _CACHE.get(game.id)
    if cached is not None and cached[0].version == game.version:
        return cached[1]
    match: Match | None = None
    if cached is not None and cached[0].version < game.version:
        match = cached[1]
        for data in game.actions[cached[0].version :]:
            out = match.apply(Action.from_json(data))
            if isinstance(out, Refusal):
                match = None
                break
            match = out
    if match is None:
        match = Match.from_record(game.record())
    _remember(game, match)
    return match


def _remember(game: Game, match: Match) -> None:
    with _CACHE_LOCK:
        current = _CACHE.get(game.id)
        if current is not None and current[0].version > game.version:
            return
        _CACHE[game.id] = (game, match)


def learn(game_id: str, version: int, news: dict[str, Any] | None) -> None:
    """Bring this process's cached copy to ``version`` from a broadcast's ``news`` (the
    action committed as that version and its write time), without reading the database.

    Only from the version just before (the log is append-only and each version has one
    action, so copy + action is exactly the stored row); anything else is left to the
    read-through. The play bench spent one database read and a replay per page per
    pushed move on this before (issue 12)."""
    if not news:
        return
    data, updated, seats = news.get("action"), news.get("updated"), news.get("seats")
    if not isinstance(data, dict) or not isinstance(updated, str):
        return
    if not isinstance(seats, list) or not all(isinstance(entry, dict) for entry in seats):
        return
    with _CACHE_LOCK:
        found = _CACHE.get(game_id)
    if found is None or found[0].version != version - 1:
        return
    game, match = found
    try:
        out = match.apply(Action.from_json(data))
        when = datetime.fromisoformat(updated)
    except (KeyError, TypeError, ValueError):
        log.warning("unreadable broadcast for game %s version %s", game_id, version)
        return
    if isinstance(out, Refusal):
        # Cannot happen for a committed action; the next read goes to the database.
        log.error("broadcast action of game %s refused here: %s", game_id, out.reason)
        return
    _remember(_successor(game, data, out, when, seats), out)


def _successor(
    game: Game,
    data: dict[str, Any],
    out: Match,
    updated: datetime,
    seats: list[dict[str, Any]] | None = None,
) -> Game:
    """The row ``game`` becomes once ``data`` (giving ``out``) is appended: the fields
    :func:`apply_action` writes, and only those (``seats`` when the move charged a clock
    reserve)."""
    new = Game(**{f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields})
    if seats is not None:
        new.seats = seats
    new.actions = [*game.actions, data]
    new.version = game.version + 1
    new.scores = list(out.scores)
    new.status = Game.Status.FINISHED if out.over else Game.Status.PLAYING
    new.updated = updated
    return new


def news_of(game_id: str, version: int) -> dict[str, Any] | None:
    """What a broadcast of ``version`` tells other processes (see :func:`learn`)."""
    found = cached(game_id, version)
    if found is None or found[0].version != version or not found[0].actions:
        return None
    game = found[0]
    # The seats too: a move may charge its seat's clock reserve (clock.charge).
    return {"action": game.actions[-1], "updated": game.updated.isoformat(), "seats": game.seats}


def cached(game_id: str, min_version: int) -> tuple[Game, Match] | None:
    """The cached game and match when they are at least ``min_version``; no database.

    Safe to call on the event loop: async code uses it to skip a thread hop."""
    with _CACHE_LOCK:
        found = _CACHE.get(game_id)
    if found is not None and found[0].version >= min_version:
        return found
    return None


def current(game_id: str, min_version: int | None = None) -> tuple[Game, Match] | None:
    """The game and its match, from the cache when it is at least ``min_version`` (and
    ``min_version`` is given), else from the database."""
    if min_version is not None:
        found = cached(game_id, min_version)
        if found is not None:
            return found
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    return game, match_of(game)


# -- creating games ------------------------------------------------------------------------


def create_game(
    *,
    owner: str,
    rules: RuleSet,
    players: int,
    rounds: int,
    levels: list[str],
    delay_ms: int | None = None,
    seed: int | None = None,
) -> Game:
    """A new game with the human in seat 0 and computers at ``levels`` in seats 1..n-1."""
    if len(levels) != players - 1 or any(level not in LEVELS for level in levels):
        raise ValueError("one known level per computer seat")
    seats: list[dict[str, Any]] = [{"kind": "human"}]
    seats += [{"kind": "computer", "level": level} for level in levels]
    game = Game(
        owner=owner,
        rules=rules.to_json(),
        players=players,
        rounds=rounds,
        seats=seats,
        human_seat=0,
        delay_ms=settings.PLAY_COMPUTER_DELAY_MS if delay_ms is None else delay_ms,
    )
    if seed is not None:
        game.seed = seed
    # Fail before saving if the engine cannot set this table up.
    Match.new(rules, players, rounds, game.seed)
    game.save()
    return game


# -- applying actions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """``reason`` is an engine refusal code or one of this module's: ``stale`` (the game
    moved on since the action was prepared), ``not_owner``, ``no_such_game``."""

    accepted: bool
    reason: str | None = None
    version: int = 0


#: Called as ``hook(game, match)`` once, inside the transaction of the write that ended
#: the game (a hook that raises undoes the move): the accounts' statistics and the rated
#: game's result register here (daifugo_site/accounts/apps.py, daifugo_site/rated/apps.py).
FINISH_HOOKS: list[Callable[[Game, Match], None]] = []


def apply_action(
    game_id: str,
    action: Action,
    *,
    by_computer: bool,
    expected_version: int | None = None,
    player: str | None = None,
) -> Outcome:
    """Apply ``action`` to the game and commit it (synchronous; the database's call).

    A human acts only for a human seat and a computer only for a computer seat or a human
    seat it stands in for (:func:`standin_seats`). ``player`` is the acting connection's
    player token: given, a human acts only for the seat that token owns (:func:`seat_of`:
    at a room table, each person's own seat; in a practice game, the owner's). The write
    is a compare-and-swap on ``version``: two workers driving one game cannot both append.
    """
    loaded = current(game_id, expected_version)
    if loaded is None:
        return Outcome(False, "no_such_game")
    move = prepare_move(*loaded, action, by_computer, expected_version, player)
    if isinstance(move, Outcome):
        return move
    game, new, out, charged = move
    # One UPDATE ... WHERE version = old: it fails when anyone else appended first. On its
    # own it is atomic, so a move is one statement in autocommit (one round trip to the
    # database, where BEGIN and COMMIT around it made three); only the move that ends the
    # game opens a transaction, for its hooks.
    with transaction.atomic() if out.over else contextlib.nullcontext():
        # status: a game ended without a move (a rated game's resignation) takes no more.
        # The log is appended by the database: it is not sent back whole (issue 43).
        written = write_move(game, new, new.actions[-1], charged)
        if written and out.over:
            # In the same transaction as the move that ends the game: what a hook writes
            # (a rated game's result and ratings) is committed with the end, or neither is.
            for hook in FINISH_HOOKS:
                hook(new, out)
    if not written:
        fresh = current(game_id)
        return Outcome(False, "stale", fresh[0].version if fresh else game.version)
    _remember(new, out)
    return Outcome(True, None, new.version)


#: What :func:`prepare_move` hands to the write: the row as read, the row after the move,
#: the match after it, and the seats when the move changed them (a clock reserve charged).
Move = tuple[Game, Game, Match, "list[dict[str, Any]] | None"]


def prepare_move(
    game: Game,
    match: Match,
    action: Action,
    by_computer: bool,
    expected_version: int | None,
    player: str | None,
) -> Outcome | Move:
    """Everything :func:`apply_action` decides before it writes: who may act, the engine's
    verdict, and the row the move makes; a refusal as an :class:`Outcome`. No database,
    except what a room table's presence reads (:func:`absent_seats`)."""
    # Whether this is the computer's move for a person who is not at the table (told to
    # the log and the seat: :func:`absent_moves`).
    absent = False
    if expected_version is not None and expected_version != game.version:
        return Outcome(False, "stale", game.version)
    if action.kind == "next":
        if by_computer and not computer_moves_on(game, match):
            return Outcome(False, "not_owner", game.version)
        if not by_computer and (player is not None or is_table_of_people(game)):
            # A table of people: a person moves on only with a seat of their own, so a
            # caller without a player token (a viewer's socket) never does.
            if player is None or seat_of(game, player) is None:
                return Outcome(False, "not_owner", game.version)
    else:
        is_computer_seat = (
            action.seat is not None
            and 0 <= action.seat < game.players
            and game.seats[action.seat].get("kind") == "computer"
        )
        if by_computer and not is_computer_seat:
            # A human seat the computer stands in for (a dropped room player, a turn
            # clock run out): only for that seat, and only while that holds.
            away = absent_seats(game)
            if action.seat not in away and action.seat not in clock.expired_seats(game, match):
                return Outcome(False, "not_owner", game.version)
            absent = action.seat in away
        elif not by_computer:
            if is_computer_seat:
                return Outcome(False, "not_your_turn", game.version)
            if (player is not None or is_table_of_people(game)) and not (
                player is not None and player_owns(game, player, action.seat)
            ):
                # Acting for another person's seat at a room table.
                return Outcome(False, "not_your_seat", game.version)
    out = match.apply(action)
    if isinstance(out, Refusal):
        return Outcome(False, out.reason, game.version)
    now = timezone.now()
    # What the move took of its seat's clock reserve (clock.py), written with the move.
    charged = clock.charge(game, match, action, now)
    if absent and action.seat is not None:
        charged = _mark_absent(charged or game.seats, action.seat, game.version)
    return game, _successor(game, action.to_json(), out, now, seats=charged), out, charged


async def apply_on_loop(
    game_id: str,
    action: Action,
    *,
    by_computer: bool,
    expected_version: int | None = None,
    player: str | None = None,
) -> Outcome | None:
    """:func:`apply_action` without the database thread, when it can be (None when not:
    the caller takes the thread's way).

    It can when the database is PostgreSQL (``asyncdb.on_loop``), the version the action
    answers is the one this process holds, the table is not a room's (whose presence the
    checks read from the database) and the move does not end the game (that one commits
    with its hooks, in a transaction). The same checks, the same engine call, the same
    compare-and-swap statement: only the connection it is sent on differs (issue 43)."""
    if expected_version is None or not asyncdb.on_loop():
        return None
    loaded = cached(game_id, expected_version)
    if loaded is None or loaded[0].version != expected_version:
        return None
    game, match = loaded
    if is_table_of_people(game):
        return None
    move = prepare_move(game, match, action, by_computer, expected_version, player)
    if isinstance(move, Outcome):
        return move
    game, new, out, charged = move
    if out.over:
        return None
    if not await write_move_on_loop(game, new, new.actions[-1], charged):
        return None  # stale: the thread's way reads the row and says which version is
    _remember(new, out)
    return Outcome(True, None, new.version)


def group_name(game_id: str) -> str:
    return f"game-{game_id}"


async def broadcast(game_id: str, version: int, news: dict[str, Any] | None = None) -> None:
    """Tell every open page of the game to render the new state (committed already),
    with the action that made it so each process can advance its copy (:func:`learn`);
    ``news`` when the caller has it already (:func:`news_of`)."""
    layer = get_channel_layer()
    if layer is not None:
        message: dict[str, Any] = {"type": "game.update", "version": version}
        if news is None and version > 0:
            news = news_of(game_id, version)
        if news is not None:
            message["news"] = news
        await layer.group_send(group_name(game_id), message)


async def submit(
    game_id: str,
    action: Action,
    *,
    by_computer: bool,
    expected_version: int | None = None,
    player: str | None = None,
) -> Outcome:
    """Apply, commit, then broadcast; and let the computers answer."""
    outcome = await apply_on_loop(
        game_id, action, by_computer=by_computer, expected_version=expected_version, player=player
    )
    if outcome is None:
        outcome = await asyncdb.call(
            apply_action,
            game_id,
            action,
            by_computer=by_computer,
            expected_version=expected_version,
            player=player,
        )
    if outcome.accepted:
        # Read once: the broadcast and the computers' turn carry the same news.
        news = news_of(game_id, outcome.version)
        try:
            await broadcast(game_id, outcome.version, news)
        except Exception as exc:  # noqa: BLE001 - the move is committed whatever happens here
            # The channel layer is away (Redis restarting, issue 43): the move stands and
            # its own page shows it; other pages catch up when they next hear of the game
            # or reconnect (each is sent its whole table then).
            log.warning("game %s: version %d stored but not broadcast (%r)", game_id,
                        outcome.version, exc)  # fmt: skip
        if not by_computer:
            ensure_driver(game_id, outcome.version, news)
        loaded = cached(game_id, outcome.version)
        if loaded is not None:
            clock.wake_at_deadline(*loaded, wake=ensure_driver)
    return outcome


# -- computer seats ------------------------------------------------------------------------

# The driver, the pool, leases and the sweep live in computers.py; the search itself in
# thinking.py (a pool process). These two stay here because they read a game row.


def computers_to_act(game: Game, match: Match) -> list[int]:
    """Seats the computer must play now (all that owe a return in the exchange): computer
    seats, and human seats it stands in for. Reads the database for a room table
    (:func:`needs_database`): call it from a thread then."""
    r = match.round
    if r.over or game.status == Game.Status.FINISHED:
        return []
    if is_table_of_people(game) and hooks.people is not None:
        if not hooks.people.anyone_here(game):
            return []  # nobody at the table: it waits for a person (rooms.presence)
    computer = [s for s in range(game.players) if game.seats[s].get("kind") == "computer"]
    extra = standin_seats(game, match)
    if extra:
        computer = sorted({*computer, *extra})
    if r.phase == EXCHANGE:
        return [s for s in computer if r.owed[s]]
    return [r.to_act] if r.to_act in computer else []


#: The owner of a rated game (daifugo_site/rated) starts with this: such a game is watched
#: only through its own pages (its two players; a replay once it is over), never as a
#: practice game's viewer (issue 45: its page said 403 while the play socket let anyone in).
RATED_OWNER_PREFIX = "rated:"


def is_rated(game: Game) -> bool:
    return game.owner.startswith(RATED_OWNER_PREFIX)


def is_table_of_people(game: Game) -> bool:
    """A room's game: its human seats belong to player tokens (``"player"`` entries)."""
    return any(entry.get("player") for entry in game.seats)


def needs_database(game: Game) -> bool:
    """Whether who-plays-what for this game reads the database (seat presence)."""
    return is_table_of_people(game)


def seat_of(game: Game, player: str) -> int | None:
    """The human seat ``player`` (a player token) owns, or None."""
    if is_table_of_people(game):
        for seat, entry in enumerate(game.seats):
            if entry.get("kind") == "human" and entry.get("player") == player:
                return seat
        return None
    return game.human_seat if player == game.owner else None


def player_owns(game: Game, player: str, seat: int | None) -> bool:
    """Whether ``player`` (a player token) may act for the human ``seat`` (on one device,
    a hotseat table's person owns every human seat)."""
    if seat is None or not 0 <= seat < len(game.seats):
        return False
    entry = game.seats[seat]
    if is_table_of_people(game):
        return entry.get("kind") == "human" and entry.get("player") == player
    return seat == game.human_seat and player == game.owner


def standin_seats(game: Game, match: Match) -> set[int]:
    """Human seats the computer plays right now: a turn clock run out (:mod:`.clock`), or
    a room player who left or whose connection stayed down (``daifugo_site.rooms``)."""
    return set(clock.expired_seats(game, match)) | absent_seats(game)


def absent_seats(game: Game) -> set[int]:
    """Human seats the computer plays because their person is away (left, dropped, or
    handed over by the room's creator): ``daifugo_site.rooms``."""
    if is_table_of_people(game) and hooks.people is not None:
        return hooks.people.standins(game)
    return set()


#: A human seat entry's key: the positions in the game's log of the moves the computer
#: made for the seat's person while they were away. Written with the move by
#: :func:`apply_action` (the one place that knows who made it), so the log and the seat
#: say it from the record, never from who is connected now. Bounded by the log's length.
ABSENT_MOVES = "absent_moves"


def _mark_absent(seats: list[dict[str, Any]], seat: int, index: int) -> list[dict[str, Any]]:
    out = [dict(entry) for entry in seats]
    out[seat][ABSENT_MOVES] = [*out[seat].get(ABSENT_MOVES, []), index]
    return out


def absent_moves(game: Game) -> dict[int, int]:
    """Position in the log -> seat, for every move the computer made for an absent person."""
    return {
        int(index): seat
        for seat, entry in enumerate(game.seats)
        for index in entry.get(ABSENT_MOVES, ())
    }


def computer_moves_on(game: Game, match: Match) -> bool:
    """Whether the computer may start the next round itself (a room table whose people
    all let the computer play, or left the result unread past the room's pause)."""
    if not match.round.over or match.over or not is_table_of_people(game):
        return False
    people = hooks.people
    return people is not None and people.anyone_here(game) and people.moves_on(game, match)


def ensure_driver(
    game_id: str, version: int | None = None, news: dict[str, Any] | None = None
) -> None:
    """Make sure the game's computer seats are played: here (the embedded default) or by a
    computer worker (``PLAY_COMPUTERS = "workers"``), told ``news`` of ``version``
    (:func:`learn`). Call on the event loop. The driver is :mod:`.computers`, registered
    in :mod:`.hooks` by the app's ready() (it imports this module, not the other way)."""
    if hooks.driver is not None:
        hooks.driver(game_id, version, news)


# -- sessions -----------------------------------------------------------------------------

#: Session key of the random token that marks games this browser created.
PLAYER_TOKEN_KEY = "daifugo_player"


def player_token(session: Any) -> str:
    """This browser's token, created on first use."""
    import secrets

    token = session.get(PLAYER_TOKEN_KEY)
    if not token:
        token = secrets.token_urlsafe(16)
        session[PLAYER_TOKEN_KEY] = token
    return str(token)


def get_game(game_id: str) -> Game | None:
    return Game.objects.filter(pk=game_id).first()
