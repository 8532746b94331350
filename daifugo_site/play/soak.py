"""Soak of the real stack: ``python -m daifugo_site.play.soak --games 40 --minutes 30``.

Starts throwaway Redis and PostgreSQL (``localservices.Stack``), ``--workers`` daphne web
workers and ``--computer-workers`` computer workers, and keeps ``--games`` games going for
``--minutes``: each is played by the bench's client (:mod:`.bench`: the human seat answers
at once, over a real WebSocket) and replaced by a new game as soon as its match ends.
Every ``--every`` seconds it samples the resident memory of every process (each worker
with its children: the search pool), the number of Redis keys and of PostgreSQL
connections. At the end it checks, and prints (``--json``: also one JSON line):

- memory flat: each process's last sample within ``--flat`` (10 %) of its first sample
  after ``--warmup`` seconds (PostgreSQL's backends come and go: reported, not checked);
- Redis keys bounded: the largest count after warm-up at most ``--flat`` above the
  count at the end of warm-up plus the games in play (a lease and a few keys per game);
- PostgreSQL connections within the pools' bounds (``max_size`` per worker, plus this
  program's own);
- 0 errors: none seen by the clients, and no traceback in any worker's log.

Exit status 0 when every check holds. Loopback only; it stops everything it started.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

from . import bench
from .localservices import Stack

#: Each worker's event-loop connections (DB_LOOP_CONNECTIONS), unless the environment names
#: them: the soak starts its workers with this value, so its bound counts what they open.
LOOP_CONNECTIONS = 2


def rss_kb(pid: int) -> int:
    """Resident memory (kB) of ``pid`` and its live descendants (Linux /proc)."""
    total, todo, seen = 0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [
                    int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split()
                ]
        except (OSError, ValueError):
            continue
    return total


def processes(stack: Stack) -> dict[str, int]:
    """Name -> PID of every server process of the stack."""
    found = {f"web-{port}": proc.pid for port, proc in stack.web.items()}
    found.update({f"computers-{i}": proc.pid for i, proc in enumerate(stack.computers)})
    if stack.redis is not None:
        found["redis"] = stack.redis.pid
    if stack.pg_dir is not None and (stack.pg_dir / "postmaster.pid").exists():
        found["postgres"] = int((stack.pg_dir / "postmaster.pid").read_text().split()[0])
    return found


def sample(stack: Stack) -> dict[str, Any]:
    import psycopg
    import redis

    client = redis.Redis.from_url(stack.redis_url)
    try:
        keys = int(client.dbsize())
    finally:
        client.close()
    with psycopg.connect(stack.database_url.replace("postgres://", "postgresql://")) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        ).fetchone()
    return {
        "t": time.monotonic(),
        "rss_kb": {name: rss_kb(pid) for name, pid in processes(stack).items()},
        "redis_keys": keys,
        # This sampling connection excluded.
        "pg_connections": int(row[0]) - 1 if row else 0,
    }


def _new_game(number: int, args: argparse.Namespace) -> tuple[str, str]:
    from django.db import connection

    try:
        return bench.new_game(number, args.delay_ms, args.seed, "beginner")
    finally:
        connection.close()  # back to this process's pool (a thread of to_thread's own)


async def _slot(
    i: int, ports: list[int], args: argparse.Namespace, deadline: float, stats: dict
) -> None:
    """One table of the soak: a game after another until the deadline."""
    rng = random.Random(args.seed + i)
    n = 0
    while time.monotonic() < deadline - 1:
        number = i + n * args.games
        game_id, key = await asyncio.to_thread(_new_game, number, args)
        url = f"ws://127.0.0.1:{ports[i % len(ports)]}/ws/play/zh-hans/{game_id}/"
        await bench._client(url, key, deadline, random.Random(rng.random()), stats, 0.0)
        n += 1


async def _soak(stack: Stack, ports: list[int], args: argparse.Namespace) -> dict[str, Any]:
    stats: dict = {"rtt": [], "errors": [], "moves": 0, "games": 0, "versions": 0}
    start = time.monotonic()
    deadline = start + args.minutes * 60
    samples: list[dict[str, Any]] = []

    async def watch() -> None:
        while time.monotonic() < deadline:
            samples.append(await asyncio.to_thread(sample, stack))
            if not args.json:
                last = samples[-1]
                print(
                    f"{last['t'] - start:6.0f} s  rss MB "
                    + " ".join(f"{k} {v / 1024:.0f}" for k, v in last["rss_kb"].items())
                    + f"  redis keys {last['redis_keys']}  pg conns {last['pg_connections']}"
                    + f"  games {stats['games']}  errors {len(stats['errors'])}",
                    flush=True,
                )
            await asyncio.sleep(min(args.every, max(0.0, deadline - time.monotonic())))
        samples.append(await asyncio.to_thread(sample, stack))

    slots = [_slot(i, ports, args, deadline, stats) for i in range(args.games)]
    await asyncio.gather(watch(), *slots)
    return {"stats": stats, "samples": samples, "start": start}


def verdict(
    samples: list[dict[str, Any]],
    start: float,
    args: argparse.Namespace,
    pools: int,
    loop_connections: int = LOOP_CONNECTIONS,
) -> dict[str, Any]:
    """The checks of the module's docstring, from the samples."""
    warm = [s for s in samples if s["t"] - start >= args.warmup] or samples[-1:]
    first, last = warm[0], warm[-1]
    growth = {
        name: round(last["rss_kb"].get(name, 0) / kb - 1, 3)
        for name, kb in first["rss_kb"].items()
        if kb and name != "postgres"
    }
    keys_bound = int(first["redis_keys"] * (1 + args.flat)) + 4 * args.games + 10
    keys_max = max(s["redis_keys"] for s in warm)
    # max_size of each process's pool (settings/_env.py): the workers' and this program's;
    # and each worker's event-loop pool (DB_LOOP_CONNECTIONS, daifugo_site/asyncdb.py).
    conn_bound = 8 * (pools + 1) + loop_connections * pools
    conn_max = max(s["pg_connections"] for s in samples)
    return {
        "rss_growth": growth,
        "memory_flat": all(g <= args.flat for g in growth.values()),
        "redis_keys_max": keys_max,
        "redis_keys_bound": keys_bound,
        "redis_bounded": keys_max <= keys_bound,
        "pg_connections_max": conn_max,
        "pg_connections_bound": conn_bound,
        "pg_within_pools": conn_max <= conn_bound,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m daifugo_site.play.soak")
    parser.add_argument("--games", type=int, default=40, help="games in play at once")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=120.0, help="seconds before checking")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--delay-ms", type=int, default=300, help="pause before computer moves")
    parser.add_argument("--workers", type=int, default=2, help="web workers (daphne)")
    parser.add_argument("--computer-workers", type=int, default=1)
    parser.add_argument("--flat", type=float, default=0.10, help="allowed growth (0.10 = 10 %%)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)

    # A SIGTERM unwinds the with block: every server this started stops.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with Stack() as stack:
        stack.start_redis()
        stack.start_postgres()
        env = stack.env()
        loop_connections = int(env.get("DB_LOOP_CONNECTIONS") or LOOP_CONNECTIONS)
        env["DB_LOOP_CONNECTIONS"] = str(loop_connections)
        bench._setup(env)
        ports = bench.start_workers(
            stack, env, args.workers, args.computer_workers, args.delay_ms, args.games
        )
        run = asyncio.run(_soak(stack, ports, args))
        logs = stack.log_text()
        alive = all(p.poll() is None for p in [*stack.web.values(), *stack.computers])
    stats, samples = run["stats"], run["samples"]
    tracebacks = len(re.findall(r"^Traceback", logs, flags=re.M))
    result = verdict(
        samples, run["start"], args, args.workers + args.computer_workers, loop_connections
    )
    result.update(
        games=args.games,
        minutes=args.minutes,
        workers=args.workers,
        computer_workers=args.computer_workers,
        matches_finished=stats["games"],
        human_moves=stats["moves"],
        client_errors=len(stats["errors"]),
        error_kinds=sorted(set(stats["errors"])),
        log_tracebacks=tracebacks,
        workers_alive=alive,
        rss_mb={
            name: [round(s["rss_kb"].get(name, 0) / 1024, 1) for s in samples]
            for name in samples[-1]["rss_kb"]
        },
        redis_keys=[s["redis_keys"] for s in samples],
        pg_connections=[s["pg_connections"] for s in samples],
    )
    result["ok"] = bool(
        result["memory_flat"]
        and result["redis_bounded"]
        and result["pg_within_pools"]
        and not stats["errors"]
        and not tracebacks
        and alive
        and stats["games"] > 0
    )
    if tracebacks or stats["errors"]:
        print(logs[-6000:], file=sys.stderr)
    print(f"games {args.games} for {args.minutes:g} min, web workers {args.workers}, "
          f"computer workers {args.computer_workers}")  # fmt: skip
    print(f"matches finished {stats['games']}, human moves {stats['moves']}")
    print("rss growth after warm-up " + ", ".join(
        f"{k} {100 * v:+.1f}%" for k, v in result["rss_growth"].items()))  # fmt: skip
    print(f"redis keys max {result['redis_keys_max']} (bound {result['redis_keys_bound']})")
    print(
        f"postgres connections max {result['pg_connections_max']} "
        f"(bound {result['pg_connections_bound']})"
    )
    print(f"errors {len(stats['errors'])} (clients), {tracebacks} (tracebacks in logs)")
    print("ok" if result["ok"] else "NOT ok")
    if args.json:
        print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
