"""Deployment pitfalls: the production guide's steps work as written, and the production
settings refuse what would make the site unsafe.

The end-to-end test runs the guide's own ``manage.py`` steps (read from docs/production.md,
so the two cannot drift apart) with the production settings into a temporary database and
STATIC_ROOT, starts daphne with those settings on a free loopback port, and reads pages
through it as the reverse proxy would send them (Host, X-Forwarded-Proto: https).
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from tests.html import find_all

BASE_DIR = Path(django_settings.BASE_DIR)
PROD = "daifugo_site.settings.prod"
HOST = "daifugo.example.com"
SECRET = "prod-test-" + "k" * 50
# The guide's set-up steps, in the order it gives them (run them all, and nothing else).
GUIDE = "docs/production.md"
STEPS = ("migrate", "compile_translations", "load_site_content", "collectstatic")


def _clean_env(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PURGE_", "PLAY_"))
        and key not in {"DATABASE_URL", "REDIS_URL"}
    }
    return {**env, **extra}


def _prod_env(tmp: Path, **extra: str) -> dict[str, str]:
    defaults = {
        "DJANGO_SETTINGS_MODULE": PROD,
        "DJANGO_SECRET_KEY": SECRET,
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
        "DJANGO_STATIC_ROOT": str(tmp / "static"),
    }
    return _clean_env(**{**defaults, **extra})


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def guide_steps() -> list[list[str]]:
    """The ``manage.py`` set-up commands of the production guide, in order."""
    text = (BASE_DIR / GUIDE).read_text(encoding="utf-8")
    section = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    commands = []
    for line in section.splitlines():
        match = re.match(r"\s*\.venv/bin/python manage\.py (\S+)(.*?)(?:\s+#.*)?$", line)
        if match and match[1] in STEPS:
            commands.append([match[1], *match[2].split()])
    return commands


def test_the_guide_compiles_translations_before_loading_the_content() -> None:
    order = [command[0] for command in guide_steps()]
    assert order == list(STEPS), order


@dataclass
class ProdServer:
    url: str
    tmp: Path

    def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], str]:
        request = urllib.request.Request(
            self.url + path, headers={"Host": HOST, "X-Forwarded-Proto": "https", **headers}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode(errors="replace")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def prod_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProdServer]:
    tmp = tmp_path_factory.mktemp("prod")
    env = _prod_env(tmp)
    for command in guide_steps():
        result = _manage(env, *command)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
    assert (tmp / "static" / "staticfiles.json").exists()
    port = _free_port()
    log = (tmp / "daphne.log").open("wb")
    # Popen, not a shell `&`: the PID we stop is daphne's own (STACK.md trap 9).
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "--proxy-headers", "-b", "127.0.0.1", "-p", str(port),
         "daifugo_site.asgi:application"],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    server = ProdServer(f"http://127.0.0.1:{port}", tmp)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (tmp / "daphne.log").read_text()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, "daphne did not start"
                time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


PAGES = ["/zh-hans/", "/ja/rules/", "/zh-hans/rules/forms-and-jokers/", "/ja/faq/",
         "/zh-hans/learn/", "/ja/play/", "/zh-hans/glossary/"]  # fmt: skip


def test_prod_serves_every_page_after_the_guide_steps(prod_server: ProdServer) -> None:
    for path in PAGES:
        status, headers, html = prod_server.get(path)
        assert status == 200, (path, status, html[:500])
        stylesheets = [e.get("href") or "" for e in find_all(html, "link", rel="stylesheet")]
        assert stylesheets and all(re.search(r"\.[0-9a-f]{12}\.css$", s) for s in stylesheets)
    status, headers, _css = prod_server.get(stylesheets[0])
    assert status == 200 and "max-age" in headers.get("Cache-Control", "")


def test_prod_pages_carry_csp_with_the_nonce_and_permissions_policy(
    prod_server: ProdServer,
) -> None:
    _status, _headers, index = prod_server.get("/zh-hans/learn/")
    lesson = next(
        href
        for href in (e.get("href") or "" for e in find_all(index, "a"))
        if re.fullmatch(r"/zh-hans/learn/[a-z0-9-]+/", href)
    )
    status, headers, html = prod_server.get(lesson)
    assert status == 200
    policy = headers["Content-Security-Policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce, policy
    assert "script-src 'self' 'nonce-" in policy and "object-src 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    scripts = find_all(html, "script")
    inline = [s for s in scripts if not s.get("src")]
    assert inline, "the lesson page's inline script"
    assert all(s.get("nonce") == nonce[1] for s in inline)
    # htmx's own tags carry it too; other scripts are the site's files ('self').
    htmx = [s for s in scripts if "django_htmx/" in (s.get("src") or "")]
    assert htmx and all(s.get("nonce") == nonce[1] for s in htmx)
    # A second response has another nonce.
    _status, again, _html = prod_server.get(lesson)
    assert re.search(r"'nonce-([^']+)'", again["Content-Security-Policy"])[1] != nonce[1]  # type: ignore[index]
    assert "camera=()" in headers["Permissions-Policy"]
    assert "geolocation=()" in headers["Permissions-Policy"]


def test_prod_admin_is_not_at_admin(prod_server: ProdServer) -> None:
    status, _headers, _html = prod_server.get("/admin/login/")
    assert status == 404
    path = _manage(_prod_env(prod_server.tmp), "admin_path").stdout.strip()
    assert path.startswith("/manage-") and len(path) > 20
    status, _headers, html = prod_server.get(f"{path}login/")
    assert status == 200 and 'name="password"' in html


def test_prod_admin_path_from_the_environment(tmp_path: Path) -> None:
    env = _prod_env(tmp_path, DJANGO_ADMIN_PATH="staff-door-7f3k")
    assert _manage(env, "admin_path").stdout.strip() == "/staff-door-7f3k/"


def test_prod_refuses_a_star_in_allowed_hosts(tmp_path: Path) -> None:
    for hosts in ("*", f"{HOST},*", "*.example.com"):
        result = _manage(_prod_env(tmp_path, DJANGO_ALLOWED_HOSTS=hosts), "check")
        assert result.returncode != 0
        assert "DJANGO_ALLOWED_HOSTS contains '*'" in result.stderr


def test_prod_server_refuses_to_start_without_its_static_manifest(tmp_path: Path) -> None:
    # What `make setup` leaves behind: static files collected with the development settings.
    dev = _clean_env(DJANGO_SETTINGS_MODULE="daifugo_site.settings.dev",
                     DJANGO_STATIC_ROOT=str(tmp_path / "static"))  # fmt: skip
    assert _manage(dev, "collectstatic", "--noinput", "-v0").returncode == 0
    result = subprocess.run(
        [sys.executable, "-c", "import daifugo_site.asgi"],
        cwd=BASE_DIR, env=_prod_env(tmp_path), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode != 0
    assert "No static files manifest" in result.stderr and "collectstatic" in result.stderr


def test_prod_websocket_origins_are_exact(tmp_path: Path) -> None:
    code = "from django.conf import settings; print(settings.WEBSOCKET_ALLOWED_ORIGINS)"
    result = _manage(
        _prod_env(tmp_path, DJANGO_ALLOWED_HOSTS=f"{HOST},.example.org"), "shell", "-c", code
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == (
        f"['https://{HOST}', 'https://example.org', 'https://*.example.org']"
    )


# -- the WebSocket checks, in process ------------------------------------------------------


async def _handshake(host: str | None, origin: str) -> bool:
    from daifugo_site.asgi import websocket_app

    headers = [(b"origin", origin.encode())]
    if host is not None:
        headers.append((b"host", host.encode()))
    communicator = WebsocketCommunicator(websocket_app(), "/ws/ping/ja/", headers=headers)
    connected, _code = await communicator.connect()
    await communicator.disconnect()
    return bool(connected)


@pytest.mark.django_db
async def test_websocket_checks_host_like_http() -> None:
    assert await _handshake("127.0.0.1:8000", "http://127.0.0.1:8000")
    # A name not in ALLOWED_HOSTS (DNS rebinding: the browser sends the attacker's name as
    # both Host and Origin) is refused, as an HTTP request would be.
    assert not await _handshake("evil.example", "http://evil.example")
    assert not await _handshake("evil.example", "http://127.0.0.1:8000")
    assert Client().get("/ja/", HTTP_HOST="evil.example").status_code == 400


@pytest.mark.django_db
async def test_production_origins_are_exact(settings: pytest.FixtureRequest) -> None:
    settings.ALLOWED_HOSTS = [HOST, "localhost"]  # type: ignore[attr-defined]
    settings.WEBSOCKET_ALLOWED_ORIGINS = [f"https://{HOST}"]  # type: ignore[attr-defined]
    assert await _handshake(HOST, f"https://{HOST}")
    assert await _handshake(HOST, f"https://{HOST}:443")
    refused = [f"http://{HOST}", f"https://{HOST}:8443", "http://localhost", "null",
               "http://localhost:8000", "https://localhost", "https://evil.example"]  # fmt: skip
    for origin in refused:
        assert not await _handshake(HOST, origin), origin


@pytest.mark.django_db
def test_canonical_and_hreflang_links_carry_no_query(content: None, client: Client) -> None:
    html = client.get("/zh-hans/rules/?utm_source=x&q=%3Cb%3E").content.decode()
    links = [e for e in find_all(html, "link") if e.get("rel") in {"canonical", "alternate"}]
    hrefs = [e.get("href") or "" for e in links if e.get("hreflang") or e.get("rel") == "canonical"]
    assert len(hrefs) >= 4
    assert all("?" not in href for href in hrefs), hrefs
    assert "http://testserver/zh-hans/rules/" in hrefs and "http://testserver/ja/rules/" in hrefs
    switch = [e.get("href") for e in find_all(html, "a") if e.get("data-language") == "ja"]
    assert switch == ["/ja/rules/?utm_source=x&q=%3Cb%3E"]


def test_a_random_admin_path_is_not_guessable() -> None:
    from daifugo_site.settings._env import admin_path

    paths = {admin_path(None, secrets.token_urlsafe(50), derive=True) for _ in range(50)}
    assert len(paths) == 50 and not any(p.startswith("admin") for p in paths)


def test_the_guards_doctests() -> None:
    import doctest

    import daifugo_site.security
    import daifugo_site.settings._env

    for module in (daifugo_site.security, daifugo_site.settings._env):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__
