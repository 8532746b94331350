"""Throwaway real services for the multi-process tests and the bench (loopback only).

:class:`Stack` starts, in a temporary directory: ``redis-server --port P --save ""``, a
PostgreSQL cluster (``initdb`` as the ``postgres`` user when run as root: PostgreSQL
refuses to run as root), any number of daphne web workers and ``manage.py computers``
workers, each a subprocess whose PID is its own (STACK.md traps 8-10). Everything stops
with the stack (a ``with`` block). Nothing here is used by the site itself.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import IO

BASE_DIR = Path(__file__).resolve().parents[2]
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(
    port: int, seconds: float = 30, proc: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


def missing() -> str | None:
    """Why the real services cannot run here, or None."""
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (apt-get install redis-server)"
    if not (PG_BIN / "initdb").exists():
        return "PostgreSQL 15 is not installed (apt-get install postgresql)"
    try:
        import channels_redis  # noqa: F401
        import psycopg  # noqa: F401
    except ImportError:
        return "channels-redis and psycopg are not installed (pip install -e '.[dev]')"
    return None


class Stack:
    """Redis + PostgreSQL + web and computer workers, all throwaway."""

    def __init__(self, *, settings: str = "daifugo_site.settings.test") -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="daifugo-stack-"))
        self.settings = settings
        self.procs: list[subprocess.Popen[bytes]] = []
        self.logs: list[IO[bytes]] = []
        self.redis_url = ""
        self.database_url = ""
        self.pg_dir: Path | None = None
        self.pg_options = ""
        self.redis: subprocess.Popen[bytes] | None = None
        self.web: dict[int, subprocess.Popen[bytes]] = {}
        self.computers: list[subprocess.Popen[bytes]] = []

    # -- services ---------------------------------------------------------------------------

    def _spawn(
        self, name: str, cmd: list[str], env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - closed in stop()
        self.logs.append(log)
        proc = subprocess.Popen(cmd, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.procs.append(proc)
        return proc

    def start_redis(self, port: int | None = None) -> str:
        """Start Redis (again on ``port``: a restart keeps the URL the workers know)."""
        port = port or free_port()
        proc = self._spawn(
            "redis",
            [
                "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
        )
        wait_for_port(port, proc=proc)
        self.redis = proc
        self.redis_url = f"redis://127.0.0.1:{port}/0"
        return self.redis_url

    def stop_redis(self) -> None:
        """Stop Redis (SIGKILL: nothing is saved, as after a crash; ``--save ""`` anyway)."""
        assert self.redis is not None
        self.kill(self.redis)

    def _pg_ctl(self, *args: str) -> None:
        assert self.pg_dir is not None
        subprocess.run(
            self._as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.pg_dir), *args]),
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def stop_postgres(self) -> None:
        """Stop PostgreSQL at once (``immediate``: every connection is cut)."""
        self._pg_ctl("-m", "immediate", "-w", "stop")

    def restart_postgres(self) -> None:
        """Start the stopped PostgreSQL again, same port and data."""
        self._pg_ctl("-l", str(self.pg_dir / "log"), "-w", "-o", self.pg_options, "start")

    def psql(self, sql: str) -> str:
        """Run SQL on the site's database as the superuser; its output (unaligned)."""
        port = self.database_url.rsplit(":", 1)[1].split("/")[0]
        done = subprocess.run(
            self._as_postgres(
                [str(PG_BIN / "psql"), "-h", "127.0.0.1", "-p", port, "-U", "postgres",
                 "-d", "daifugo", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql]
            ),
            check=True,
            capture_output=True,
            text=True,
        )  # fmt: skip
        return done.stdout

    def _as_postgres(self, cmd: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd

    def start_postgres(self) -> str:
        port = free_port()
        data = self.tmp / "pg"
        data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.tmp, "postgres")
            shutil.chown(data, "postgres")
        subprocess.run(
            self._as_postgres(
                [str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.pg_options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.pg_dir = data
        self._pg_ctl("-l", str(data / "log"), "-w", "-o", self.pg_options, "start")
        subprocess.run(
            self._as_postgres(
                [
                    str(PG_BIN / "createdb"),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-U",
                    "postgres",
                    "daifugo",
                ]
            ),
            check=True,
        )
        self.database_url = f"postgres://postgres@127.0.0.1:{port}/daifugo"
        return self.database_url

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("DJANGO_SETTINGS_MODULE", None)
        env.update(
            DJANGO_SETTINGS_MODULE=self.settings,
            DATABASE_URL=self.database_url,
            DAIFUGO_TEST_REDIS_URL=self.redis_url,
            REDIS_URL=self.redis_url,
            PYTHONUNBUFFERED="1",
            # Sweep every second: a killed worker's turn is picked up soon after its lease.
            PLAY_SWEEP_SECONDS="1",
        )
        env.update(extra)
        return env

    def manage(self, *args: str, **extra: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env(**extra),
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout

    def start_web(self, **extra: str) -> int:
        port = free_port()
        proc = self._spawn(
            f"web-{port}",
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "daifugo_site.asgi:application",
            ],
            self.env(**extra),
        )
        wait_for_port(port, proc=proc)
        self.web[port] = proc
        return port

    def start_computers(self, **extra: str) -> subprocess.Popen[bytes]:
        proc = self._spawn(
            f"computers-{len(self.computers)}",
            [sys.executable, "manage.py", "computers"],
            self.env(**extra),
        )
        self.computers.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        """SIGKILL: no clean shutdown, as when a machine or a process dies."""
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)

    def log_text(self, tail: int = 0) -> str:
        """Every process's log (the last ``tail`` characters of each, if given)."""
        return "\n".join(
            f"== {p.name}\n{p.read_text(errors='replace')[-tail:]}"
            for p in sorted(self.tmp.glob("*.log"))
        )

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        if self.pg_dir is not None:
            subprocess.run(
                self._as_postgres(
                    [str(PG_BIN / "pg_ctl"), "-D", str(self.pg_dir), "-m", "immediate", "stop"]
                ),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        for log in self.logs:
            log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> Stack:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
