"""A real daphne for the security tests and probes, and raw WebSocket clients on loopback.

The raw client writes frames by hand and reads only when asked, so a test can be the
client that never reads (the slow-reader case daphne's own buffers would otherwise hide).

Run as a probe (the figures in the issue's closing note)::

    python -m tests.security.socket_helpers flood [--messages 1500] [--size 1000000]
    python -m tests.security.socket_helpers viewers [--viewers 1000] [--seconds 20]
    python -m tests.security.socket_helpers games [--seconds 30]

Each starts its own daphne (test settings, a fresh migrated SQLite file) on a free port;
extra settings come from the environment (e.g. ``PLAY_MAX_VIEWERS_PER_GAME=1000``).
"""

from __future__ import annotations

import argparse
import base64
import http.cookiejar
import json
import os
import re
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Daphne:
    process: subprocess.Popen[bytes]
    port: int
    env: dict[str, str]
    log_path: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kb = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]
        return kb / 1024

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextmanager
def daphne(
    extra_env: dict[str, str] | None = None,
    base_dir: Path = BASE_DIR,
    args: tuple[str, ...] = (),
) -> Iterator[Daphne]:
    """daphne (with ``args``) serving ``base_dir``'s site with test settings on a free port."""
    workdir = Path(tempfile.mkdtemp(prefix="daphne-security-"))
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "daifugo_site.settings.test",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(base_dir),
        **(extra_env or {}),
    }
    for command in (["migrate", "--noinput", "-v", "0"], ["load_site_content"]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=base_dir,
            env=env,
            check=True,
            capture_output=True,
            timeout=180,
        )
    port = free_port()
    log_path = workdir / "daphne.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), *args,
             "daifugo_site.asgi:application"],
            cwd=base_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    server = Daphne(process, port, env, log_path)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"daphne exited:\n{server.log()}")
            try:
                with urllib.request.urlopen(f"{server.url}/zh-hans/", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


class RawSocket:
    """A WebSocket client over a plain socket: frames written by hand, read on request."""

    def __init__(self, port: int, path: str, cookie: str | None = None, rcvbuf: int = 0) -> None:
        self.sock = socket.socket()
        if rcvbuf:
            # Before connect, so the window the server sees is small from the start.
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: http://127.0.0.1:{port}",
        ]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode(errors="replace"))

    def send_text(self, text: str | bytes, opcode: int = 0x1) -> None:
        payload = text.encode() if isinstance(text, str) else text
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = (
            bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if n < 4096
            else _mask(payload, mask)
        )
        self.sock.sendall(header + mask + masked)

    def _exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def receive(self) -> tuple[int, bytes]:
        """The next frame: (opcode, payload)."""
        first, second = self._exact(2)
        n = second & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._exact(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._exact(8))[0]
        return first & 0x0F, self._exact(n)

    def receive_json(self) -> dict[str, object]:
        opcode, payload = self.receive()
        assert opcode == 0x1, (opcode, payload)
        return json.loads(payload)  # type: ignore[no-any-return]

    def close(self) -> None:
        self.sock.close()


def _mask(payload: bytes, mask: bytes) -> bytes:
    # XOR with the repeated mask, fast for big payloads (int arithmetic on the whole).
    n = len(payload)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


# -- HTTP as a browser does it ------------------------------------------------------------


class Browser:
    """An HTTP client with its own cookies (one browser session)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def get(self, path: str) -> tuple[int, str, str]:
        try:
            with self.opener.open(self.base_url + path, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.geturl(), error.read().decode()

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        if self.cookie("csrftoken") is None:
            self.get(path)
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.cookie("csrftoken")})
        request = urllib.request.Request(
            self.base_url + path, data=data.encode(), headers={"Referer": self.base_url + path}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.geturl(), error.read().decode()

    def new_game(self, speed: str = "300", room: str = "") -> tuple[int, str, str]:
        """A practice game, or with ``room`` (link or hotseat) a room from the same form."""
        fields = {"table": "4", "preset": "standard", "rounds": "3", "speed": speed}
        fields |= {f"level_{i}": "beginner" for i in range(1, 6)}
        if room:
            fields |= {"mode": room, "drop_timeout": "30", "clock": "0", "humans": "2"}
            fields |= {"standin_level": "intermediate", "name": "probe"}
            if self.cookie("csrftoken") is None:
                self.get("/zh-hans/play/")  # the form's page sets the CSRF cookie
            return self.post("/zh-hans/play/room/new/", fields)
        return self.post("/zh-hans/play/", fields)


# -- probes -----------------------------------------------------------------------------


def probe_flood(
    messages: int,
    size: int,
    base_dir: Path = BASE_DIR,
    socket_kind: str = "ping",
    server: Daphne | None = None,
) -> dict[str, object]:
    """A client that never reads floods a socket (``ping``, or ``play``: a cookieless
    viewer of a practice game) with ``messages`` frames of about ``size`` bytes; daphne's
    RSS before and after, and whether it still answers another client."""
    if server is None:
        with daphne(base_dir=base_dir) as started:
            return probe_flood(messages, size, base_dir, socket_kind, started)
    path = "/ws/ping/zh-hans/"
    if socket_kind == "play":
        _status, url, _body = Browser(server.url).new_game()
        path = f"/ws/play/zh-hans/{url.rstrip('/').split('/')[-1]}/"
    before = server.rss_mb()
    client = RawSocket(server.port, path, rcvbuf=4096)
    payload = json.dumps({"data": "x" * size})
    sent = 0
    started = time.monotonic()
    try:
        for _ in range(messages):
            client.send_text(payload)
            sent += 1
    except OSError:
        pass  # the server dropped us
    elapsed = time.monotonic() - started
    time.sleep(2)
    after = server.rss_mb()
    other = RawSocket(server.port, "/ws/ping/ja/")
    other.send_text('{"data": 1}')
    alive = other.receive_json().get("type") == "pong"
    other.close()
    client.close()
    return {
        "rss_before_mb": round(before, 1),
        "rss_after_mb": round(after, 1),
        "messages_sent": sent,
        "seconds": round(elapsed, 2),
        "server_still_answers": alive,
    }


def _page_times(base_url: str, count: int, seconds: float = 0) -> list[float]:
    """Home page times (ms): ``count`` of them, or as many as fit in ``seconds``."""
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while len(times) < count or time.monotonic() < deadline:
        started = time.monotonic()
        with urllib.request.urlopen(base_url + "/ja/", timeout=60) as response:
            response.read()
        times.append((time.monotonic() - started) * 1000)
        time.sleep(0.2)
    return times


def probe_viewers(viewers: int, seconds: float, base_dir: Path = BASE_DIR) -> dict[str, object]:
    """``viewers`` sockets watch one game while its owner plays as fast as the table
    allows; another visitor's home page time (median ms) without and with them."""
    import asyncio

    import websockets

    with daphne(base_dir=base_dir) as server:
        print(f"daphne pid {server.process.pid}", file=sys.stderr, flush=True)
        owner = Browser(server.url)
        status, game_url, _ = owner.new_game()
        assert status == 200 and "/play/" in game_url, (status, game_url)
        game_id = game_url.rstrip("/").split("/")[-1]
        quiet = statistics.median(_page_times(server.url, 15))
        ws_url = f"ws://127.0.0.1:{server.port}/ws/play/zh-hans/{game_id}/"
        origin = server.url
        result: dict[str, object] = {"viewers_asked": viewers, "home_quiet_ms": round(quiet, 1)}

        async def main() -> None:
            accepted = refused = 0
            socks = []
            received = 0

            async def watch(ws: websockets.ClientConnection) -> None:
                nonlocal received
                try:
                    async for _message in ws:
                        received += 1
                except websockets.ConnectionClosed:
                    pass

            for _ in range(viewers):
                try:
                    ws = await websockets.connect(ws_url, origin=origin, max_size=2**20)
                except Exception:
                    refused += 1
                    continue
                first = await ws.recv()
                if "data-reason=" in str(first):
                    refused += 1
                    await ws.close()
                    continue
                accepted += 1
                socks.append(ws)
            tasks = [asyncio.create_task(watch(ws)) for ws in socks]
            cookie = f"sessionid={owner.cookie('sessionid')}"
            actions = 0
            async with websockets.connect(
                ws_url, origin=origin, additional_headers={"Cookie": cookie}
            ) as player:
                loop = asyncio.get_running_loop()
                timing = loop.run_in_executor(None, _page_times, server.url, 5, seconds)
                deadline = time.monotonic() + seconds
                page: dict[str, str] = {}
                while time.monotonic() < deadline:
                    try:
                        text = str(await asyncio.wait_for(player.recv(), timeout=5))
                    except TimeoutError:
                        continue
                    page["last"] = text
                    move = _owner_move(text)
                    if move is not None:
                        await player.send(json.dumps(move))
                        actions += 1
                busy = await timing
            for ws in socks:
                await ws.close()
            for task in tasks:
                task.cancel()
            result.update(
                viewers_accepted=accepted,
                viewers_refused=refused,
                owner_actions=actions,
                viewer_frames=received,
                home_samples=len(busy),
                home_with_viewers_ms=round(statistics.median(busy), 1),
                home_with_viewers_p90_ms=round(statistics.quantiles(busy, n=10)[-1], 1),
                home_with_viewers_max_ms=round(max(busy), 1),
            )

        asyncio.run(main())
        return result


def _owner_move(push: str) -> dict[str, str] | None:
    """The owner's scripted answer to a push: first legal play, else pass, next, give."""
    import html

    version = re.search(r'data-version="(\d+)"', push)
    if version is None:
        return None
    v = version.group(1)
    if 'data-testid="round-result"' in push and 'data-action="next"' in push:
        return {"action": "next", "v": v}
    owe = re.search(r'data-testid="hand"[^>]*data-owe="(\d+)"', push)
    if owe and int(owe.group(1)):
        cards = re.findall(r'data-card="([A-Z0-9]{2})"', push[push.find('id="hand"') :])
        return {"action": "give", "cards": " ".join(cards[: int(owe.group(1))]), "v": v}
    if 'data-your-turn="true"' in push:
        legal = re.search(r'data-legal="([^"]*)"', push)
        moves = json.loads(html.unescape(legal.group(1))) if legal else []
        if moves:
            move = {"action": "play", "cards": " ".join(moves[0]["cards"]), "v": v}
            if moves[0].get("ambiguous"):
                move["shape"] = moves[0]["form"]
            return move
        return {"action": "pass", "v": v}
    return None


def probe_games(seconds: float, base_dir: Path = BASE_DIR, room: str = "") -> dict[str, object]:
    """One client creating games as fast as it can, cookieless (a new session each time)
    and with one session: games and sessions written."""
    import sqlite3

    with daphne(base_dir=base_dir) as server:
        created = refused = 0
        deadline = time.monotonic() + seconds
        one = Browser(server.url)
        while time.monotonic() < deadline:
            # Alternate: the same session, then a fresh cookieless client.
            client = one if (created + refused) % 2 else Browser(server.url)
            status, url, _ = client.new_game(room=room)
            if status == 200 and url.rstrip("/").split("/")[-1] not in ("play", ""):
                created += 1
            else:
                refused += 1
        db = server.env["DATABASE_URL"].removeprefix("sqlite:///")
        with sqlite3.connect(db) as conn:
            games = conn.execute("select count(*) from play_game").fetchone()[0]
            rooms = conn.execute("select count(*) from rooms_room").fetchone()[0]
            sessions = conn.execute("select count(*) from django_session").fetchone()[0]
        return {
            "seconds": seconds,
            "created": created,
            "refused": refused,
            "game_rows": games,
            "room_rows": rooms,
            "session_rows": sessions,
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="probe", required=True)
    flood = sub.add_parser("flood")
    flood.add_argument("--messages", type=int, default=1500)
    flood.add_argument("--size", type=int, default=1_000_000)
    flood.add_argument("--base-dir", type=Path, default=BASE_DIR)
    flood.add_argument("--socket", choices=("ping", "play"), default="ping")
    viewers = sub.add_parser("viewers")
    viewers.add_argument("--viewers", type=int, default=1000)
    viewers.add_argument("--seconds", type=float, default=20)
    viewers.add_argument("--base-dir", type=Path, default=BASE_DIR)
    games = sub.add_parser("games")
    games.add_argument("--seconds", type=float, default=30)
    games.add_argument("--base-dir", type=Path, default=BASE_DIR)
    games.add_argument("--room", choices=("", "link", "hotseat"), default="")
    args = parser.parse_args()
    if args.probe == "flood":
        out = probe_flood(args.messages, args.size, args.base_dir, args.socket)
    elif args.probe == "viewers":
        out = probe_viewers(args.viewers, args.seconds, args.base_dir)
    else:
        out = probe_games(args.seconds, args.base_dir, args.room)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
