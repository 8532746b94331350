"""Room games under load: ``python -m daifugo_site.rooms.bench --rooms 10 --seconds 40``.

Starts a throwaway Redis and PostgreSQL and two daphne web workers plus a computer worker
(``daifugo_site.play.localservices.Stack``, as the multi-process tests do), creates
``--rooms`` rooms of four people each (no computer seats), and opens the four pages of
each room alternately on the two workers. Every person plays as soon as it is their turn
(the first legal play, else a pass; the exchange and next round too), and each human move
is timed from sending it to receiving the pushed table that shows it applied, on that
person's own page. Prints the figures, one per line; loopback only; stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections import Counter

from daifugo_site.play.localservices import Stack

CREATE = """
from django.contrib.sessions.backends.db import SessionStore
from daifugo_site.play import services
from daifugo_site.rooms import services as rooms
from rules_engine import RuleSet
out = []
for r in range(%d):
    keys, tokens = [], []
    for i in range(4):
        store = SessionStore(); tokens.append(services.player_token(store)); store.save()
        keys.append(store.session_key)
    room = rooms.create_room(creator=tokens[0], name="P0", rules=RuleSet.preset("standard"),
        players=4, rounds=7, levels=["beginner"] * 3, delay_ms=0)
    for i in (1, 2, 3):
        rooms.take_seat(room, i, tokens[i], "P%%d" %% i)
    game, _ = rooms.start(room, tokens[0], fill=False)
    out.append(" ".join([game.id, *keys]))
print("\\n".join(out))
"""


async def person(
    port: int, game_id: str, key: str, until: float, times: list[float], refused: list[str]
) -> None:
    from tests.daifugo_site.play.test_multiprocess import Page
    from tests.daifugo_site.play.test_ws_game import first_play

    page = Page(port, game_id, key)
    table = await page.connect()
    sent_at: tuple[float, int] | None = None
    # One answer per table version: a push that shows the same version again (the room
    # panel) must not send the move twice (the second would only be refused as stale).
    acted: int | None = None
    while time.monotonic() < until and not table.match_over:
        version = table.version or 0
        if sent_at is not None and version > sent_at[1]:
            times.append(time.monotonic() - sent_at[0])
            sent_at = None
        if sent_at is None and table.error is None and acted != version:
            data = None
            if table.round_over:
                data = {"action": "next", "v": str(version)}
            elif table.owe:
                data = {
                    "action": "give",
                    "cards": " ".join(table.hand[: table.owe]),
                    "v": str(version),
                }
            elif table.your_turn:
                data = first_play(table)
            if data is not None:
                acted = version
                await page.send(data)
                if data["action"] != "next":
                    sent_at = (time.monotonic(), version)
        try:
            table = await page.receive(timeout=max(0.1, until - time.monotonic()))
        except TimeoutError:
            break
        if table.error is not None:
            if sent_at is not None:
                refused.append(table.error)
            sent_at = None  # refused (e.g. a "next" someone else sent first): not timed
    await page.close()


async def run(
    ports: tuple[int, int], rows: list[list[str]], seconds: float
) -> tuple[list[float], list[str]]:
    until = time.monotonic() + seconds
    times: list[float] = []
    refused: list[str] = []
    tasks = []
    for row in rows:
        game_id, *keys = row
        for i, key in enumerate(keys):
            tasks.append(person(ports[i % 2], game_id, key, until, times, refused))
    await asyncio.gather(*tasks)
    return times, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=40)
    args = parser.parse_args()
    # The page reader of the multi-process tests (tests/daifugo_site/play) imports Django:
    # the test settings, as the servers use.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "daifugo_site.settings.test")
    with Stack() as stack:
        stack.start_redis()
        stack.start_postgres()
        stack.manage("migrate", "--noinput", "-v", "0")
        ports = (stack.start_web(), stack.start_web())
        stack.start_computers()
        out = stack.manage("shell", "-v", "0", "-c", CREATE % args.rooms)
        rows = [line.split() for line in out.splitlines() if line.strip()]
        times, refused_moves = asyncio.run(run(ports, rows, args.seconds))
    times.sort()
    print(f"rooms {len(rows)} people {4 * len(rows)} workers 2 seconds {args.seconds:g}")
    print(f"human moves {len(times)} ({len(times) / args.seconds:.1f}/s)")
    reasons = ", ".join(f"{r} {n}" for r, n in Counter(refused_moves).most_common())
    print(f"human moves refused {len(refused_moves)}" + (f" ({reasons})" if reasons else ""))
    if times:
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"human-move p50 {statistics.median(times) * 1000:.0f} ms")
        print(f"human-move p95 {p95 * 1000:.0f} ms")
        print(f"human-move max {times[-1] * 1000:.0f} ms")
    figures: dict[str, float] = {"moves": len(times), "refused": len(refused_moves)}
    if times:
        figures.update(
            p50_ms=round(statistics.median(times) * 1000),
            p95_ms=round(times[min(len(times) - 1, int(0.95 * len(times)))] * 1000),
            max_ms=round(times[-1] * 1000),
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
