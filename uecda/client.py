"""A UECda client: the tournament's tables in, the project's Observation to a computer
player, its move back as a table.

:class:`UecdaGame` keeps what a seat may know (RULES.md section 7) from the tables it is
sent: its hand, every play and pass, the card counts, who went out, the classes and its
own exchange. UECda numbers players 0..4 and seats them in an order it sends (``[6][10..]``
seat order by player number, re-drawn every few games); the project's seat is the
position in that order, so the engine's turn order is the server's.

``run_client`` speaks to a server over TCP; ``UecdaGame`` does not touch a socket, so
tests drive it with tables.
"""

from __future__ import annotations

import dataclasses
import random
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rules_engine.ai import Budget, make_player
from rules_engine.ai.base import Player
from rules_engine.cards import count
from rules_engine.moves import PASS, Move
from rules_engine.observation import Observation, round_from_observation
from rules_engine.rules import RuleSet
from rules_engine.state import with_joker_suits

from . import protocol as P
from .protocol import Table

PLAYERS = 5
#: The server resets the classes every this many games (the first game of each run has
#: no exchange); the games left in a run are the rounds the class still matters for.
CLASS_RESET_GAMES = 100
#: Points of a UECda game by place (1st .. 5th).
UECDA_POINTS = (5, 4, 3, 2, 1)


@dataclass
class GameRecord:
    """One finished game as this client saw it (for the tournament's tally)."""

    my_player: int
    result: tuple[int, ...]  # player numbers, first place to last
    previous_class: int | None  # this client's class coming in (None: a game with no classes)
    rejected: int = 0
    #: Wall-clock milliseconds of each decision with a choice in it (two or more legal
    #: moves), from the table read to the move chosen: what a person at the site waits.
    move_ms: tuple[float, ...] = ()

    @property
    def place(self) -> int:
        return self.result.index(self.my_player) + 1

    @property
    def points(self) -> int:
        return UECDA_POINTS[self.place - 1]


@dataclass
class UecdaGame:
    """The public state of one game, rebuilt from tables, for player number ``me``."""

    me: int
    start: Table
    rules: RuleSet = field(default_factory=lambda: RuleSet.preset("uecda"))
    order: list[int] = field(init=False)  # player numbers by seat
    seat: int = field(init=False)
    hand: int = field(init=False)
    dealt: int = field(init=False)
    counts: list[int] = field(init=False)
    history: list[tuple[int, Move]] = field(default_factory=list)
    top: Move | None = None
    top_seat: int = -1
    passed: set[int] = field(default_factory=set)
    out: list[int] = field(default_factory=list)
    revolution: bool = False
    jback: bool = False
    locked: bool = False
    previous: tuple[int, ...] | None = None
    owe: int = 0
    partner: int | None = None
    gave: int = 0
    got: int = 0
    first_leader: int = -1
    rejected: int = 0
    rounds_left: int | None = None
    _to_act: int = -1
    _exchange_seen: bool = False

    def __post_init__(self) -> None:
        t = self.start
        self.order = [t[6][10 + i] for i in range(PLAYERS)]
        if sorted(self.order) != list(range(PLAYERS)):
            raise P.ProtocolError(f"seat order {self.order} is not a permutation")
        self.seat = self.order.index(self.me)
        self.hand = P.table_cards(t)
        self.dealt = self.hand
        self.counts = [t[6][p] for p in self.order]
        classes = [t[6][5 + p] for p in range(PLAYERS)]
        if sorted(classes) == list(range(PLAYERS)):
            by_class = sorted(range(PLAYERS), key=lambda p: classes[p])
            self.previous = tuple(self.order.index(p) for p in by_class)
            my_class = classes[self.me]
            partner_class = {0: 4, 1: 3, 3: 1, 4: 0}.get(my_class)
            if partner_class is not None:
                self.partner = self.order.index(by_class[partner_class])
        self.owe = t[5][1] if t[5][0] else 0

    @property
    def previous_class(self) -> int | None:
        if self.previous is None:
            return None
        return self.previous.index(self.seat)

    # -- reading the server ---------------------------------------------------------------

    def seat_of(self, player: int) -> int:
        return self.order.index(player)

    def turn(self, table: Table) -> bool:
        """Read a turn table (sent to everyone before each move); ``True`` on our turn."""
        self.hand = P.table_cards(table)
        if not self._exchange_seen:
            self._exchange_seen = True
            if self.previous is not None:
                # The exchange is over: what left the hand we were dealt, what came in.
                self.gave = self.dealt & ~self.hand
                self.got = self.hand & ~self.dealt
            self.first_leader = self.seat_of(table[5][3])
        self._to_act = self.seat_of(table[5][3])
        if table[5][4]:
            self.top = None
            self.top_seat = -1
            self.passed = set()
        self.jback = bool(table[5][5])
        self.revolution = bool(table[5][6])
        self.locked = bool(table[5][7])
        self.counts = [table[6][p] for p in self.order]
        return bool(table[5][2])

    def stage(self, table: Table) -> Move:
        """Read the stage table sent after each move: the play made, or a pass."""
        actor = self._to_act
        shown = P.table_cards(table)
        if shown == 0 or (self.top is not None and shown == self.top.cards):
            self.passed.add(actor)
            self.history.append((actor, PASS))
            return PASS
        move = P.table_move(table, self.revolution ^ self.jback)
        if move is None:
            raise P.ProtocolError(f"the stage shows no combination: {table[:5]}")
        self.history.append((actor, move))
        self.top = move
        self.top_seat = actor
        self.counts[actor] -= move.size
        if self.counts[actor] <= 0 and actor not in self.out:
            self.out.append(actor)
        return move

    def result(self) -> tuple[int, ...]:
        """Player numbers from first place to last, once the game is over."""
        seats = list(self.out) + [s for s in range(PLAYERS) if s not in self.out]
        return tuple(self.order[s] for s in seats)

    # -- the project's view -----------------------------------------------------------------

    def observation(self, exchange: bool = False) -> Observation:
        top = self.top
        lock = top.suits if (self.locked and top is not None and not exchange) else 0
        streak = 0
        if top is not None and top.cards & ((1 << 52) - 1):
            streak = 2 if lock else 1
        counts = list(self.counts)
        if exchange:
            # The start table counts the hands as dealt; ours and our partner's have
            # changed by the cards the partner was made to give us. (The other pair's
            # gift and return cancel out, so their dealt counts are what they hold after.)
            got = count(self.hand) - counts[self.seat]
            counts[self.seat] += got
            if self.partner is not None:
                counts[self.partner] -= got
        obs = Observation(
            seat=self.seat,
            rules=self.rules,
            players=PLAYERS,
            phase="exchange" if exchange else "play",
            to_act=None if exchange else self._to_act,
            hand=self.hand,
            counts=tuple(counts),
            field=top,
            field_seat=self.top_seat if self.top_seat >= 0 else None,
            passed=tuple(sorted(self.passed)),
            revolution=self.revolution,
            jback=self.jback,
            lock=lock,
            number_lock=False,
            streak=streak,
            out=tuple(self.out),
            penalised=(),
            history=tuple(self.history),
            previous=self.previous,
            gave=self.gave,
            got=self.got,
            owe=self.owe if exchange else 0,
            partner=self.partner,
            result=None,
            legal=(),
            first_leader=self.first_leader if self.first_leader >= 0 else self._to_act,
            rounds_left=self.rounds_left,
        )
        if exchange:
            return obs
        hands = [0] * PLAYERS
        hands[self.seat] = self.hand
        legal = tuple(round_from_observation(obs, hands).legal_moves())
        return dataclasses.replace(obs, legal=legal)

    def move_table(self, move: Move) -> Table:
        top = self.top
        lock = top.suits if (self.locked and top is not None) else 0
        composed = with_joker_suits(move, top, lock).suits if not move.is_pass else 0
        return P.move_table(move, composed, top, self.revolution ^ self.jback)


# -- the socket loop ----------------------------------------------------------------------------


class Connection:
    """Exact reads and writes of tables and ints on a socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def _read(self, size: int) -> bytes:
        data = bytearray()
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise ConnectionError("the server closed the connection")
            data += chunk
        return bytes(data)

    def read_table(self) -> Table:
        return P.unpack(self._read(P.TABLE_BYTES))

    def read_int(self) -> int:
        value: int = int.from_bytes(self._read(4), "big", signed=True)
        return value

    def send_table(self, table: Table) -> None:
        self.sock.sendall(P.pack(table))

    def send_int(self, value: int) -> None:
        self.sock.sendall(value.to_bytes(4, "big", signed=True))


def play_games(
    conn: Connection,
    player: Player,
    *,
    name: str = "daifugo-club",
    budget: Budget | None = None,
    seed: int = 1,
    on_game: Callable[[GameRecord], None] | None = None,
    on_turn: Callable[[Observation], None] | None = None,
) -> list[GameRecord]:
    """Enter the server's match and play every game of it with ``player``."""
    rng = random.Random(seed)
    conn.send_table(P.profile_table(name))
    me = conn.read_int()
    records: list[GameRecord] = []
    in_run = 0  # games played since the classes were last reset
    while True:
        game = UecdaGame(me, conn.read_table())
        if game.previous is None:
            in_run = 0
        game.rounds_left = max(0, CLASS_RESET_GAMES - 1 - in_run)
        in_run += 1
        if game.owe > 0:
            obs = game.observation(exchange=True)
            cards = player.choose_return(obs, rng)
            game.gave = cards
            conn.send_table(P.cards_table(cards))
        flag = P.GAME_GOES_ON
        move_ms: list[float] = []
        while flag == P.GAME_GOES_ON:
            if game.turn(conn.read_table()):
                started = time.perf_counter()
                obs = game.observation()
                if on_turn is not None:
                    on_turn(obs)
                move = player.choose_move(obs, rng, budget) if obs.legal else PASS
                if len(obs.legal) > 1:
                    move_ms.append((time.perf_counter() - started) * 1000)
                conn.send_table(game.move_table(move))
                if conn.read_int() != P.ACCEPTED and not move.is_pass:
                    game.rejected += 1  # the server takes a refused play as a pass
            game.stage(conn.read_table())
            flag = conn.read_int()
        record = GameRecord(me, game.result(), game.previous_class, game.rejected, tuple(move_ms))
        records.append(record)
        if on_game is not None:
            on_game(record)
        if flag != P.GAME_OVER:
            return records


def run_client(
    host: str,
    port: int,
    level: str,
    *,
    budget: Budget | None = None,
    name: str | None = None,
    seed: int = 1,
    quiet: bool = False,
) -> list[GameRecord]:
    player = make_player(level)
    total = [0, 0]

    def progress(record: GameRecord) -> None:
        total[0] += 1
        total[1] += record.points
        if not quiet:
            print(
                f"game {total[0]}: place {record.place}, {record.points} points, "
                f"mean {total[1] / total[0]:.3f}, rejected {record.rejected}",
                file=sys.stderr,
                flush=True,
            )

    with socket.create_connection((host, port), timeout=600) as sock:
        return play_games(
            Connection(sock),
            player,
            name=name or level,
            budget=budget,
            seed=seed,
            on_game=progress,
        )
