"""Load benchmark of the play page: ``python -m daifugo_site.play.bench``.

Starts the real site (daphne, test settings, a fresh SQLite file, the in-memory channel
layer) on 127.0.0.1, creates one game per client against beginner computers, then runs
every client at once over a real WebSocket. Each client plays the human seat as soon as
it is its turn (a random legal move or a pass), and measures the round trip of each human
move: from sending it to receiving the pushed table that shows it applied. Prints the
figures, one per line. Loopback only; bounded in time; it stops by itself.
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
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _prepare(env: dict[str, str], clients: int, delay_ms: int, seed: int) -> list[tuple[str, str]]:
    """Migrate, then create one game and one session per client: (game id, session key)."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=BASE_DIR,
        env=env,
        check=True,
    )
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore

    from daifugo_site.play import services
    from rules_engine import RuleSet

    pairs = []
    for i in range(clients):
        store = SessionStore()
        token = services.player_token(store)
        store.save()
        game = services.create_game(
            owner=token,
            rules=RuleSet.preset("standard"),
            players=4,
            rounds=3,
            levels=["beginner"] * 3,
            delay_ms=delay_ms,
            seed=seed + i,
        )
        assert store.session_key is not None
        pairs.append((game.id, store.session_key))
    return pairs


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
        return {"action": "next"}
    owe = OWE.search(hand)
    if owe and int(owe.group(1)):
        codes = re.findall(r'data-card="([A-Z0-9]{2})"', hand)
        return {"action": "give", "cards": " ".join(codes[: int(owe.group(1))])}
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
    if not re.search(r'data-action="pass" disabled', hand):
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
    except Exception as exc:  # noqa: BLE001 - a benchmark counts failures, it doesn't stop
        stats["errors"].append(type(exc).__name__)


async def _run_clients(
    port: int, pairs: list[tuple[str, str]], seconds: float, seed: int, warmup: float
) -> dict:
    stats: dict = {"rtt": [], "errors": [], "moves": 0, "games": 0}
    # Round trips are counted once every client has connected and its game has started.
    warm_until = time.monotonic() + warmup
    deadline = warm_until + seconds
    rng = random.Random(seed)
    tasks = [
        _client(
            f"ws://127.0.0.1:{port}/ws/play/zh-hans/{gid}/",
            key,
            deadline,
            random.Random(rng.random()),
            stats,
            warm_until,
        )
        for gid, key in pairs
    ]
    await asyncio.gather(*tasks)
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m daifugo_site.play.bench")
    parser.add_argument("--clients", type=int, default=200, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--delay-ms", type=int, default=300, help="pause before computer moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play before measuring"
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.update(
            DJANGO_SETTINGS_MODULE="daifugo_site.settings.test",
            DATABASE_URL=f"sqlite:///{tmp}/bench.sqlite3",
            PYTHONUNBUFFERED="1",
        )
        env.pop("REDIS_URL", None)
        pairs = _prepare(env, args.clients, args.delay_ms, args.seed)
        port = _free_port()
        log = open(Path(tmp) / "daphne.log", "w")  # noqa: SIM115
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "daifugo_site.asgi:application"],
            cwd=BASE_DIR, env={**env, "PLAY_COMPUTER_DELAY_MS": str(args.delay_ms)},
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            for _ in range(300):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            stats = asyncio.run(_run_clients(port, pairs, args.seconds, args.seed, args.warmup))
        finally:
            server.terminate()
            server.wait(timeout=10)
            log.close()
    rtt = sorted(stats["rtt"])
    print(f"clients {args.clients}")
    print(f"seconds {args.seconds:.0f} (after {args.warmup:.0f} s of warm-up)")
    print(f"computer delay ms {args.delay_ms}")
    print(f"human moves {len(rtt)}")
    print(f"matches finished {stats['games']}")
    if rtt:
        print(f"rtt p50 ms {statistics.median(rtt) * 1000:.1f}")
        print(f"rtt p95 ms {rtt[int(0.95 * (len(rtt) - 1))] * 1000:.1f}")
        print(f"rtt max ms {rtt[-1] * 1000:.1f}")
    print(f"errors {len(stats['errors'])}")
    if stats["errors"]:
        print("error kinds " + ", ".join(sorted(set(stats["errors"]))))
    return 0 if rtt and not stats["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
