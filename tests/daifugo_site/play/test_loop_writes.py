"""Issue 43 on a real PostgreSQL: a move sent from the event loop (``services.apply_on_loop``,
``asyncdb.execute``) stores exactly what the database thread's way stores.

Two games with the same seed are played to the end by the same choices, one through
``services.submit`` on an event loop, the other through ``services.apply_action`` on the
thread: their stored rows are equal, and every move but the last (which ends the game and
commits with its hooks, in a transaction) went out on the loop. Two copies of one move
sent at once are applied once; a move the engine refuses changes nothing.

The script runs in a Django process of its own pointed at a throwaway PostgreSQL (the
in-process tests use SQLite, where moves always take the thread's way). Skips without the
servers, as test_multiprocess.py does; CI sets DAIFUGO_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import json

from daifugo_site.play.localservices import Stack

from . import test_multiprocess as _multiprocess

pytestmark = _multiprocess.pytestmark
stack = _multiprocess.stack

SCRIPT = """
import asyncio, json
from django.contrib.sessions.backends.db import SessionStore
from daifugo_site import asyncdb
from daifugo_site.play import computers, hooks, services
from daifugo_site.play.models import Game
from rules_engine import Action, RuleSet

hooks.driver = None  # this script plays every seat itself
on_loop = {"writes": 0}
real_write = services.write_move_on_loop

async def counted(*args):
    on_loop["writes"] += 1
    return await real_write(*args)

services.write_move_on_loop = counted

def new_game():
    store = SessionStore(); token = services.player_token(store); store.save()
    return services.create_game(owner=token, rules=RuleSet.preset("standard"), players=4,
        rounds=3, levels=["beginner", "intermediate", "beginner"], delay_ms=0, seed=23)

def choice(game, match):
    if match.round.over:
        return Action.next_round(), False
    seats = services.computers_to_act(game, match)
    if seats:
        return computers.computer_action(game, match, seats[0]), True
    return computers.computer_action(game, match, game.human_seat), False

def row(game_id):
    game = Game.objects.get(pk=game_id)
    return {"actions": game.actions, "version": game.version, "scores": game.scores,
            "status": game.status, "seats": game.seats}

async def through_loop(game_id):
    refused = []
    while True:
        game, match = await asyncdb.call(services.current, game_id)
        if match.over:
            return refused
        action, by_computer = choice(game, match)
        out = await services.submit(game_id, action, by_computer=by_computer,
            expected_version=game.version, player=None if by_computer else game.owner)
        if not out.accepted:
            refused.append(out.reason)
            return refused

def through_thread(game_id):
    while True:
        game, match = services.current(game_id)
        if match.over:
            return
        action, by_computer = choice(game, match)
        out = services.apply_action(game_id, action, by_computer=by_computer,
            expected_version=game.version, player=None if by_computer else game.owner)
        assert out.accepted, out

async def twice_and_wrong(game_id):
    game, match = await asyncdb.call(services.current, game_id)
    action, by_computer = choice(game, match)
    both = await asyncio.gather(*(services.submit(game_id, action, by_computer=by_computer,
        expected_version=game.version, player=None if by_computer else game.owner)
        for _ in range(2)))
    game, match = await asyncdb.call(services.current, game_id)
    wrong_seat = (match.round.to_act + 1) % game.players
    wrong = await services.submit(game_id, Action.pass_(wrong_seat), by_computer=True,
        expected_version=game.version)
    return [[o.accepted, o.reason] for o in both], [wrong.accepted, wrong.reason]

a, b, c = new_game(), new_game(), new_game()
refused = asyncio.run(through_loop(a.id))
loop_writes = on_loop["writes"]
through_thread(b.id)
both, wrong = asyncio.run(twice_and_wrong(c.id))
print(json.dumps({"refused": refused, "loop_writes": loop_writes, "a": row(a.id),
    "b": row(b.id), "c": row(c.id), "both": both, "wrong": wrong}, default=str))
"""


def test_a_move_sent_from_the_loop_stores_what_the_thread_stores(stack: Stack) -> None:
    found = json.loads(stack.manage("shell", "-v", "0", "-c", SCRIPT).strip().splitlines()[-1])
    assert found["refused"] == []
    a, b = found["a"], found["b"]
    assert a["status"] == b["status"] == "finished"
    assert a["version"] > 50 and a["version"] == len(a["actions"])
    for field in ("actions", "version", "scores", "seats"):
        assert a[field] == b[field], field
    # Every move went out on the loop but the one that ended the game.
    assert found["loop_writes"] == a["version"] - 1
    # The same move twice at once: applied once, the other refused as stale.
    assert sorted(map(tuple, found["both"])) == [(False, "stale"), (True, None)]
    assert found["c"]["version"] == 1 and len(found["c"]["actions"]) == 1
    # A move out of turn: refused by the engine, nothing written.
    assert found["wrong"][0] is False and found["wrong"][1] not in (None, "stale")
