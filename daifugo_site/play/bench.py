"""Load benchmark of the play page: ``python -m daifugo_site.play.bench``.

Starts the real site on 127.0.0.1: by default one daphne (test settings, a fresh SQLite
file, the in-memory channel layer); with ``--services auto`` Redis and PostgreSQL
(``REDIS_URL``/``DATABASE_URL``, else throwaway servers from the Debian packages), then
``--workers`` daphnes and ``--computer-workers`` ``manage.py computers`` processes. It
creates one game per client (computers at ``--levels``: beginner, mixed = one advanced
seat in every fourth game, or advanced), spreads the clients over the web workers, and
runs them all at once over real WebSockets. Each client plays the human seat as soon as
it is its turn (a random legal move or a pass) and measures the round trip of each human
move: from sending it to receiving the pushed table that shows it applied. The drivers
record each computer move's time from the start of its turn to its push, the deliberate
pacing delay left out. Prints the figures, one per line (``--json``: then one JSON
line). Loopback only; bounded in time; it stops by itself and everything it started.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` and its live descendants."""
    ticks, todo, seen = 0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [
                    int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split()
                ]
        except (OSError, IndexError, ValueError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def _own_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` itself (all its threads)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


#: The kinds of the stack itself (the bench's own clients are not part of it).
STACK = ("web", "computers", "redis", "postgres")


def _cpu_probe(stack: Any) -> Callable[[], dict[str, float]]:
    """CPU seconds so far of each kind of process the bench started: web workers, computer
    workers, their search pools (``search``: the advanced level's processes, apart so that
    a move's cost can be read without the search itself), Redis, PostgreSQL (server and
    backends), the bench's own clients. Linux /proc; a kind that cannot be read counts 0."""
    import resource

    def probe() -> dict[str, float]:
        computers = [proc.pid for proc in stack.computers]
        own = sum(_own_cpu(pid) for pid in computers)
        found = {
            "web": sum(_tree_cpu(proc.pid) for proc in stack.web.values()),
            "computers": own,
            "search": sum(_tree_cpu(pid) for pid in computers) - own,
            "redis": sum(
                _tree_cpu(proc.pid)
                for proc in stack.procs
                if isinstance(proc.args, list) and proc.args[:1] == ["redis-server"]
            ),
            "postgres": 0.0,
            "clients": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),
        }
        pid_file = getattr(stack, "pg_dir", None)
        if pid_file is not None and (pid_file / "postmaster.pid").exists():
            found["postgres"] = _tree_cpu(int((pid_file / "postmaster.pid").read_text().split()[0]))
        return found

    return probe


def _stack_cpu(cpu: dict[str, float]) -> float:
    """CPU seconds of the stack's own processes (the search and the bench's clients apart)."""
    return sum(cpu.get(kind, 0.0) for kind in STACK)


def _levels(kind: str, i: int) -> list[str]:
    """Computer levels of game ``i``: ``mixed`` puts one advanced seat in every fourth game."""
    if kind == "advanced":
        return ["advanced"] * 3
    if kind == "mixed" and i % 4 == 0:
        return ["advanced", "beginner", "beginner"]
    return ["beginner"] * 3


def _setup(env: dict[str, str]) -> None:
    """Migrate the database ``env`` names, then set Django up in this process on it."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=BASE_DIR,
        env=env,
        check=True,
    )
    os.environ.update(env)
    import django

    django.setup()


def new_game(i: int, delay_ms: int, seed: int, levels: str = "beginner") -> tuple[str, str]:
    """A new game with its own session (after :func:`_setup`): (game id, session key)."""
    from django.contrib.sessions.backends.db import SessionStore

    from daifugo_site.play import services
    from rules_engine import RuleSet

    store = SessionStore()
    token = services.player_token(store)
    store.save()
    game = services.create_game(
        owner=token,
        rules=RuleSet.preset("standard"),
        players=4,
        rounds=3,
        levels=_levels(levels, i),
        delay_ms=delay_ms,
        seed=seed + i,
    )
    assert store.session_key is not None
    return game.id, store.session_key


def _prepare(
    env: dict[str, str], clients: int, delay_ms: int, seed: int, levels: str = "beginner"
) -> list[tuple[str, str]]:
    """Migrate, then create one game and one session per client: (game id, session key)."""
    _setup(env)
    return [new_game(i, delay_ms, seed, levels) for i in range(clients)]


VERSION = re.compile(r'data-version="(\d+)"')
LEGAL = re.compile(r'data-legal="([^"]*)"')
REASON = re.compile(r'data-reason="([a-z_]*)"')
FRAGMENT = re.compile(r'<[a-z]+ id="([a-z-]+)"[^>]*hx-swap-oob="([a-z]+)"')
OWE = re.compile(r'data-testid="hand"[^>]*data-owe="(\d+)"')


def _merge(page: dict[str, str], message: str) -> None:
    """Keep the latest HTML of each fragment, as the browser's out-of-band swaps do."""
    starts = list(FRAGMENT.finditer(message))
    for i, found in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(message)
        if found.group(2) == "true":
            page[found.group(1)] = message[found.start() : end]


def _next_message(page: dict[str, str], rng: random.Random) -> dict[str, str] | None:
    """What the human sends now, if anything."""
    hand = page.get("hand", "")
    version = VERSION.search(page.get("table-version", ""))
    if version is None:
        return None
    v = version.group(1)
    if 'data-testid="round-result"' in page.get("results", ""):
        return {"action": "next", "v": v}
    owe = OWE.search(hand)
    if owe and int(owe.group(1)):
        codes = re.findall(r'data-card="([A-Z0-9]{2})"', hand)
        return {"action": "give", "cards": " ".join(codes[: int(owe.group(1))]), "v": v}
    if 'data-your-turn="true"' not in hand:
        return None
    legal_attr = LEGAL.search(hand)
    legal = json.loads(html.unescape(legal_attr.group(1))) if legal_attr else []
    options: list[dict[str, str]] = [
        {
            "action": "play",
            "cards": " ".join(m["cards"]),
            "shape": m["form"] if m["ambiguous"] else "",
        }
        for m in legal
    ]
    if not re.search(r'data-action="pass"[^>]*\sdisabled', hand):
        options.append({"action": "pass"})
    return dict(rng.choice(options), v=v)


async def _client(
    url: str, key: str, deadline: float, rng: random.Random, stats: dict, warm_until: float
) -> None:
    import websockets

    headers = {"Origin": "http://127.0.0.1", "Cookie": f"sessionid={key}"}
    page: dict[str, str] = {}
    try:
        async with websockets.connect(url, additional_headers=headers, open_timeout=30) as ws:
            waiting: tuple[int, float] | None = None
            first: int | None = None
            version = -1
            while time.monotonic() < deadline:
                left = max(0.1, deadline - time.monotonic())
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=left)
                except TimeoutError:
                    break
                assert isinstance(text, str)
                reason = REASON.search(text)
                if reason:
                    stats["errors"].append(reason.group(1))
                    waiting = None
                    continue
                _merge(page, text)
                found = VERSION.search(page.get("table-version", ""))
                version = int(found.group(1)) if found else -1
                if first is None and time.monotonic() >= warm_until and version >= 0:
                    first = version
                if waiting is not None and version >= waiting[0]:
                    if time.monotonic() >= warm_until:
                        stats["rtt"].append(time.perf_counter() - waiting[1])
                    waiting = None
                if 'data-testid="match-over"' in page.get("results", ""):
                    stats["games"] += 1
                    break
                if waiting is not None:
                    continue
                message = _next_message(page, rng)
                if message is None:
                    continue
                waiting = (version + 1, time.perf_counter())
                stats["moves"] += 1
                await ws.send(json.dumps(message))
            if first is not None:
                stats["versions"] += version - first
    except Exception as exc:  # noqa: BLE001 - a benchmark counts failures, it doesn't stop
        stats["errors"].append(type(exc).__name__)


async def _run_clients(
    ports: list[int],
    pairs: list[tuple[str, str]],
    seconds: float,
    seed: int,
    warmup: float,
    probe: Callable[[], dict[str, float]] | None = None,
) -> dict:
    stats: dict = {"rtt": [], "errors": [], "moves": 0, "games": 0, "versions": 0, "cpu": {}}
    # Round trips are counted once every client has connected and its game has started.
    warm_until = time.monotonic() + warmup
    deadline = warm_until + seconds

    async def measure_cpu() -> None:
        if probe is None:
            return
        await asyncio.sleep(max(0.0, warm_until - time.monotonic()))
        before = probe()
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        after = probe()
        stats["cpu"] = {kind: after[kind] - before[kind] for kind in after}

    cpu_task = asyncio.create_task(measure_cpu())
    rng = random.Random(seed)
    tasks = [
        _client(
            f"ws://127.0.0.1:{ports[i % len(ports)]}/ws/play/zh-hans/{gid}/",
            key,
            deadline,
            random.Random(rng.random()),
            stats,
            warm_until,
        )
        for i, (gid, key) in enumerate(pairs)
    ]
    await asyncio.gather(*tasks)
    await cpu_task
    return stats


def _percentile(values: list[float], q: float) -> float:
    return values[int(q * (len(values) - 1))] if values else 0.0


def start_workers(
    stack: Any,
    env: dict[str, str],
    workers: int,
    computer_workers: int,
    delay_ms: int,
    clients: int,
    stats_file: Path | None = None,
) -> list[int]:
    """Start the web workers (daphne) and computer workers on ``stack``; their ports."""
    from .localservices import wait_for_port

    run_env = {
        **env,
        "PLAY_COMPUTER_DELAY_MS": str(delay_ms),
        # The site's own budget (settings.base), not the tests' small one.
        "PLAY_COMPUTER_PLAYOUTS": os.environ.get("PLAY_COMPUTER_PLAYOUTS", "6000"),
        "PLAY_COMPUTER_BUDGET_MS": os.environ.get("PLAY_COMPUTER_BUDGET_MS", "450"),
        # Every simulated visitor connects from 127.0.0.1: the per-address socket cap
        # (sized for one household) would refuse all but the first few dozen.
        "LIMIT_SOCKETS_PER_IP": str(2 * clients + 10),
    }
    if stats_file is not None:
        run_env["PLAY_BENCH_STATS"] = str(stats_file)
    ports = []
    for _ in range(workers):
        port = _free_port()
        stack.web[port] = stack._spawn(
            f"web-{port}",
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "daifugo_site.asgi:application"],
            run_env,
        )  # fmt: skip
        ports.append(port)
    for i in range(computer_workers):
        stack.computers.append(
            stack._spawn(f"computers-{i}", [sys.executable, "manage.py", "computers"], run_env)
        )
    for port in ports:
        wait_for_port(port, proc=stack.web[port])
    return ports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m daifugo_site.play.bench")
    parser.add_argument("--clients", type=int, default=200, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--delay-ms", type=int, default=300, help="pause before computer moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play before measuring"
    )
    parser.add_argument("--workers", type=int, default=1, help="web workers (daphne)")
    parser.add_argument(
        "--computer-workers", type=int, default=0, help="manage.py computers processes"
    )
    parser.add_argument("--levels", choices=("beginner", "mixed", "advanced"), default="beginner")
    parser.add_argument(
        "--services",
        choices=("none", "auto"),
        default="none",
        help="auto: Redis and PostgreSQL (REDIS_URL/DATABASE_URL, else throwaway ones)",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    if (args.workers > 1 or args.computer_workers) and args.services == "none":
        parser.error("several workers need --services auto (Redis and PostgreSQL)")

    import signal

    from .localservices import Stack

    # A SIGTERM (a timeout, a supervisor) unwinds the with block below, which stops every
    # server the bench started instead of leaving Redis and PostgreSQL behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with Stack() as stack:
        stats_file = stack.tmp / "computer-stats.txt"
        if args.services == "auto":
            stack.redis_url = os.environ.get("REDIS_URL") or stack.start_redis()
            stack.database_url = os.environ.get("DATABASE_URL") or stack.start_postgres()
            env = stack.env()
        else:
            env = dict(os.environ)
            env.update(
                DJANGO_SETTINGS_MODULE="daifugo_site.settings.test",
                DATABASE_URL=f"sqlite:///{stack.tmp}/bench.sqlite3",
                PYTHONUNBUFFERED="1",
            )
            for name in ("REDIS_URL", "DAIFUGO_TEST_REDIS_URL"):
                env.pop(name, None)
        pairs = _prepare(env, args.clients, args.delay_ms, args.seed, args.levels)
        ports = start_workers(
            stack, env, args.workers, args.computer_workers, args.delay_ms, args.clients, stats_file
        )
        stats = asyncio.run(
            _run_clients(
                ports, pairs, args.seconds, args.seed, args.warmup, probe=_cpu_probe(stack)
            )
        )
        if stats["errors"]:
            print(stack.log_text(3000), file=sys.stderr)
        computer: dict[str, list[float]] = {}
        if stats_file.exists():
            for line in stats_file.read_text().splitlines():
                level, ms = line.split()
                computer.setdefault(level, []).append(float(ms))
    rtt = sorted(x * 1000 for x in stats["rtt"])
    every = sorted(ms for values in computer.values() for ms in values)
    advanced = sorted(computer.get("advanced", []))
    layer = "redis" if args.services == "auto" else "memory"
    db = "postgresql" if args.services == "auto" else "sqlite"
    print(f"clients {args.clients}, web workers {args.workers}, computer workers "
          f"{args.computer_workers}, levels {args.levels}, layer {layer}, db {db}")  # fmt: skip
    print(f"seconds {args.seconds:.0f} (after {args.warmup:.0f} s of warm-up)")
    print(f"computer delay ms {args.delay_ms}")
    print(f"human moves {len(rtt)}")
    print(f"matches finished {stats['games']}")
    if rtt:
        print(f"rtt p50 ms {statistics.median(rtt):.1f}")
        print(f"rtt p95 ms {_percentile(rtt, 0.95):.1f}")
        print(f"rtt max ms {rtt[-1]:.1f}")
    if every:
        print(f"computer ms p50 {statistics.median(every):.1f} p95 {_percentile(every, 0.95):.1f}")
    if advanced:
        print(
            f"advanced computer ms p50 {statistics.median(advanced):.1f} "
            f"p95 {_percentile(advanced, 0.95):.1f} (n={len(advanced)})"
        )
    moves = stats["versions"]
    if stats["cpu"] and moves:
        # What a move costs the machine, whoever runs where: the sizing figure (README).
        cpu = stats["cpu"]
        print(f"table moves measured {moves} ({moves / args.seconds:.0f}/s)")
        print(
            "cpu ms per move "
            + ", ".join(f"{kind} {1000 * sec / moves:.2f}" for kind, sec in cpu.items())
            + f"; total {1000 * sum(cpu.values()) / moves:.2f}"
        )
        search = 1000 * cpu.get("search", 0.0) / moves
        print(
            f"cpu ms per move across the stack {1000 * _stack_cpu(cpu) / moves:.2f} "
            f"(web, computers, redis, postgres; the search {search:.2f} apart)"
        )
        print(f"cpu busy {sum(cpu.values()) / args.seconds:.2f} cores of {os.cpu_count()}")
    print(f"errors {len(stats['errors'])}")
    if stats["errors"]:
        print("error kinds " + ", ".join(sorted(set(stats["errors"]))))
    if args.json:
        print(
            json.dumps(
                {
                    "clients": args.clients,
                    "workers": args.workers,
                    "computer_workers": args.computer_workers,
                    "levels": args.levels,
                    "layer": layer,
                    "db": db,
                    "human_moves": len(rtt),
                    "rtt_ms": {
                        "p50": round(statistics.median(rtt), 1) if rtt else None,
                        "p95": round(_percentile(rtt, 0.95), 1) if rtt else None,
                        "max": round(rtt[-1], 1) if rtt else None,
                    },
                    "computer_ms": {
                        "p50": round(statistics.median(every), 1) if every else None,
                        "p95": round(_percentile(every, 0.95), 1) if every else None,
                    },
                    "table_moves": moves,
                    # CPU ms per table move by kind of process; "stack" is web + computers +
                    # redis + postgres (the search and the bench's clients apart).
                    "cpu_ms_per_move": (
                        {
                            **{k: round(1000 * v / moves, 3) for k, v in stats["cpu"].items()},
                            "stack": round(1000 * _stack_cpu(stats["cpu"]) / moves, 3),
                            "total": round(1000 * sum(stats["cpu"].values()) / moves, 3),
                        }
                        if stats["cpu"] and moves
                        else None
                    ),
                    "errors": len(stats["errors"]),
                }
            )
        )
    return 0 if rtt and not stats["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
