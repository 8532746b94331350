"""The UECda client against a scripted fake server on 127.0.0.1 (port 0).

The fake server speaks the protocol the way the tournament's server does (profile, player
number, a start table per game, the exchange, a turn table to everyone before each move,
the answer 9/8 to a submitted play, the stage table, the end flag) and judges with the
engine under the ``uecda`` preset. Its four other players play their biggest play, which
brings revolutions and suit locks. At each of the client's turns it records the true
observation of the client's seat, to compare with the one the client rebuilt from tables.
"""

from __future__ import annotations

import socket
import threading
from typing import Any

from rules_engine import Refusal, Round, RuleSet, observe
from rules_engine.cards import count, format_cards, parse_cards
from rules_engine.moves import PASS, Move
from uecda import protocol as P
from uecda.client import Connection, UecdaGame, play_games

RULES = RuleSet.preset("uecda")
ME = 2  # our player number
ORDER = [3, 0, 2, 4, 1]  # player numbers by seat: we sit at seat 2
MY_SEAT = ORDER.index(ME)


class FakeServer:
    def __init__(self, games: int, seed: int, reject_first_play: bool = True) -> None:
        self.games = games
        self.seed = seed
        self.reject_first_play = reject_first_play
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.truth: list[Any] = []
        self.results: list[tuple[int, ...]] = []
        self.answers: list[int] = []
        self.exchange_counts: list[tuple[int, ...]] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            sock, _ = self.listener.accept()
            with sock:
                self._match(Connection(sock))
        except BaseException as exc:  # reported by the test
            self.error = exc
        finally:
            self.listener.close()

    def _turn_table(self, r: Round, seat: int) -> P.Table:
        t = P.cards_table(r.hands[seat])
        t[5][2] = int(r.to_act == seat)
        t[5][3] = ORDER[r.to_act]
        t[5][4] = int(r.top is None)
        t[5][5] = int(r.jback)
        t[5][6] = int(r.revolution)
        t[5][7] = int(bool(r.lock))
        self._state_rows(t, r)
        return t

    def _state_rows(self, t: P.Table, r: Round, counts: tuple[int, ...] | None = None) -> None:
        for s in range(5):
            t[6][ORDER[s]] = (counts or r.counts())[s]
            t[6][10 + s] = ORDER[s]
        if r.previous is not None:
            for place, s in enumerate(r.previous):
                t[6][5 + ORDER[s]] = place

    def _match(self, conn: Connection) -> None:
        profile = conn.read_table()
        assert profile[0][0] == P.PROTOCOL_VERSION
        conn.send_int(ME)
        previous = None
        rejected_once = False
        for g in range(self.games):
            seed = f"{self.seed}:{g}"
            dealt = Round.deal(RULES, 5, seed).hands
            r = Round.deal(RULES, 5, seed, previous=previous)
            start = P.cards_table(r.hands[MY_SEAT] if r.owed[MY_SEAT] else dealt[MY_SEAT])
            start[5][0] = 1
            start[5][1] = r.owed[MY_SEAT]
            # Like UECda's server: the start table counts the hands as dealt.
            self._state_rows(start, r, tuple(count(h) for h in dealt))
            if r.owed[MY_SEAT]:
                # What the returning seat should see: its own and its partner's hands as
                # they are now, the other pair's as dealt (their gift and return cancel).
                pair = (MY_SEAT, r.partner[MY_SEAT])
                self.exchange_counts.append(
                    tuple(r.counts()[s] if s in pair else count(dealt[s]) for s in range(5))
                )
            conn.send_table(start)
            for s in range(5):
                if r.owed[s]:
                    if s == MY_SEAT:
                        cards = P.table_cards(conn.read_table())
                    else:
                        cards = weakest(r.hands[s], r.owed[s])
                    out = r.give(s, cards)
                    assert not isinstance(out, Refusal), out
                    r = out
            while not r.over:
                for _ in range(1):
                    conn.send_table(self._turn_table(r, MY_SEAT))
                actor = r.to_act
                if actor == MY_SEAT:
                    self.truth.append(observe(r, MY_SEAT))
                    table = conn.read_table()
                    cards = P.table_cards(table)
                    move = PASS if not cards else P.table_move(table, r.reversed)
                    new = r.apply(move) if move is not None else Refusal("not_a_combination")
                    if cards and self.reject_first_play and not rejected_once:
                        rejected_once = True
                        new = Refusal("scripted")
                    answer = P.ACCEPTED if new or not cards else P.REJECTED
                    self.answers.append(answer)
                    conn.send_int(answer)
                    if not new:
                        move = PASS
                        new = r.apply(PASS)
                else:
                    move = biggest(r)
                    new = r.apply(move)
                assert not isinstance(new, Refusal), (move, new)
                if move.is_pass:
                    stage = (
                        P.empty()
                        if r.top is None
                        else P.move_table(r.top, r.top.suits, None, r.reversed)
                    )
                else:
                    assert new.top is not None or new.over or move.cards
                    played = new.actions()[-1][1]
                    stage = P.move_table(played, played.suits, r.top, r.reversed)
                conn.send_table(stage)
                r = new
                last = g == self.games - 1
                conn.send_int((P.ALL_OVER if last else P.GAME_OVER) if r.over else P.GAME_GOES_ON)
            assert r.result is not None
            self.results.append(tuple(ORDER[s] for s in r.result))
            previous = r.result


def weakest(hand: int, k: int) -> int:
    cards = 0
    for code in format_cards(hand).split()[:k]:
        cards += parse_cards(code)
    return cards


def biggest(r: Round) -> Move:
    plays = [m for m in r.legal_moves() if not m.is_pass]
    if not plays:
        return PASS
    return max(plays, key=lambda m: (m.size, -m.rank))


class Recorder:
    """A player that plays the first legal play and records what it was shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[Any] = []
        self.returns: list[Any] = []

    def choose_move(self, obs: Any, rng: Any, budget: Any = None) -> Move:
        self.seen.append(obs)
        plays = [m for m in obs.legal if not m.is_pass]
        return plays[0] if plays else PASS

    def choose_return(self, obs: Any, rng: Any) -> int:
        self.returns.append(obs)
        return weakest(obs.hand, obs.owe)


def run(games: int, seed: int, **kw: Any) -> tuple[FakeServer, Recorder, list[Any]]:
    server = FakeServer(games, seed, **kw)
    player = Recorder()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        records = play_games(Connection(sock), player, name="tester")
    server.thread.join(10)
    assert server.error is None, repr(server.error)
    return server, player, records


def test_a_whole_match_seen_exactly_as_the_engine_sees_it():
    server, player, records = run(games=4, seed=18)
    assert [r.result for r in records] == server.results
    assert len(player.seen) == len(server.truth) > 20
    for mine, true in zip(player.seen, server.truth, strict=True):
        assert mine.seat == true.seat == MY_SEAT
        assert mine.hand == true.hand
        assert mine.counts == true.counts
        assert str(mine.field) == str(true.field)
        assert mine.field_seat == true.field_seat
        assert mine.passed == true.passed
        assert mine.revolution == true.revolution
        if not (true.field is not None and true.field.only_jokers):
            # On a lone joker only the spade 3 may follow: the engine keeps the lock it
            # covered, UECda's server drops it; either way nothing else can be played.
            assert mine.lock == true.lock
        assert mine.out == true.out
        assert [(s, str(m)) for s, m in mine.history] == [(s, str(m)) for s, m in true.history]
        assert {str(m) for m in mine.legal} == {str(m) for m in true.legal}
    # What the match went through: revolutions, locks, plays on an empty field.
    assert any(o.revolution for o in player.seen)
    assert any(o.lock for o in player.seen)
    assert any(o.field is None for o in player.seen)


def test_the_exchange_classes_and_results():
    server, player, records = run(games=3, seed=5)
    assert records[0].previous_class is None
    for g, record in enumerate(records[1:], start=1):
        assert record.previous_class == server.results[g - 1].index(ME)
    # A game after the first: a rich seat returns cards, a poor one is told what it gave.
    assert all(obs.owe in (1, 2) and obs.partner is not None for obs in player.returns)
    assert {r.points for r in records} <= {1, 2, 3, 4, 5}


def test_the_returning_seat_sees_the_hands_as_they_are_after_the_gifts():
    server, player, records = run(games=4, seed=3)
    assert player.returns, "this match has the client return cards"
    # The server sends the counts as dealt; the client moves the gift between its own
    # hand and its partner's, so the counts add up to the deck (53 cards).
    assert [obs.counts for obs in player.returns] == server.exchange_counts
    assert all(sum(obs.counts) == 53 for obs in player.returns)
    # Games left before the classes are reset: the first game starts the run.
    assert [obs.rounds_left for obs in player.seen[:1]] == [99]


def test_a_rejected_play_counts_as_a_pass_and_the_client_stays_in_step():
    server, player, records = run(games=2, seed=3, reject_first_play=True)
    assert server.answers.count(P.REJECTED) == 1
    assert sum(r.rejected for r in records) == 1
    assert [r.result for r in records] == server.results


def test_a_game_tracker_reads_a_joker_pair_that_locks():
    start = P.empty()
    for i, p in enumerate(ORDER):
        start[6][10 + i] = p
        start[6][p] = 10
    game = UecdaGame(ME, start)
    turn = P.empty()
    turn[5][3] = ORDER[0]
    turn[5][4] = 1
    for p in ORDER:
        turn[6][p] = 10
    assert game.turn(turn) is False
    stage = P.empty()
    stage[0][2] = stage[1][2] = 1  # S4 H4
    assert str(game.stage(stage)) == "S4 H4"
    turn[5][3] = ORDER[1]
    turn[5][4] = 0
    game.turn(turn)
    stage = P.empty()
    stage[0][3] = 1  # S5
    stage[1][3] = 2  # the joker as H5
    move = game.stage(stage)
    assert str(move) == "S5 JK" and move.suits == 0b0011
    turn[5][3] = ORDER[2]
    turn[5][7] = 1
    turn[5][2] = 1
    assert game.turn(turn) is True
    obs = game.observation()
    assert obs.lock == 0b0011 and obs.field_seat == 1


def test_each_decision_with_a_choice_is_timed():
    """A game's record holds one wall-clock time per decision with two or more legal moves
    (the tournament's per-move p50/p95); a forced pass is not a decision."""
    server, player, records = run(games=2, seed=18)
    choices = [obs for obs in player.seen if len(obs.legal) > 1]
    assert 0 < len(choices) < len(player.seen)
    assert sum(len(r.move_ms) for r in records) == len(choices)
    assert all(0 <= t < 10_000 for r in records for t in r.move_ms)
