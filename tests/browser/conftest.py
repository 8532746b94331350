"""Reusable real-browser fixtures: a daphne server subprocess and headless Chromium.

Use them from any test module under tests/browser/ (those tests run in their own pytest
process, ``pytest -m browser``; see tests/conftest.py):

- ``daphne_server`` (session): the whole site served by daphne on a free port, test
  settings (DEBUG off, static files through whitenoise), a migrated temporary SQLite file
  with site content loaded. ``.url`` is the base URL (``http://127.0.0.1:PORT``);
  ``.manage("load_site_content")`` runs a management command against the same database.
- ``browser`` (session): Playwright's Chromium, the system one at /usr/bin/chromium.
- ``new_page`` (function): ``new_page(locale="ja-JP")`` opens a page in a fresh context
  (own cookies) whose Accept-Language follows ``locale``; all are closed after the test.
  Pages collect JavaScript errors and failed requests: ``page_problems(page)``.
- ``page`` (function): ``new_page()`` in Chinese (zh-CN).
- ``tutor_server`` (module): ``daphne_server`` with the tutor's own test lessons and
  puzzles loaded (tests/tutorials/content).

Without Chromium the browser tests skip, saying how to install it.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
INSTALL_HINT = "Chromium not found at /usr/bin/chromium: apt-get install -y chromium fonts-noto-cjk"
# Headless, no sandbox (root in CI), and nothing that phones home (STACK.md trap 7).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SERVER_START_TIMEOUT = 30.0


@dataclass
class DaphneServer:
    url: str
    env: dict[str, str]
    log_path: Path

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run ``manage.py *args`` with the server's settings and database."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def mailed_code(self, address: str) -> str:
        """The sign-up confirmation code in the newest mail to ``address`` (the server's
        mail is written to files: DAIFUGO_MAIL_DIR)."""
        import email

        folder = Path(self.env["DAIFUGO_MAIL_DIR"])
        for path in sorted(folder.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True):
            for raw in path.read_text(errors="replace").split("-" * 79):
                message = email.message_from_string(raw.strip())
                if address not in str(message.get("To", "")):
                    continue
                parts = [message] if not message.is_multipart() else message.get_payload()
                for part in parts:
                    body = part.get_payload(decode=True) or b""
                    found = re.search(rb"^\s*([A-Z0-9]{4}-[A-Z0-9]{4})\s*$", body, re.M)
                    if found:
                        return found.group(1).decode()
        raise AssertionError(f"no code mailed to {address}")


def sign_up(page: Any, server: DaphneServer, lang: str, address: str, password: str) -> None:
    """Sign up as a person does: the form, then the code from the mail typed on the next
    page; the new account lands on its profile, in the page's language."""
    from playwright.sync_api import expect

    page.goto(f"{server.url}/{lang}/accounts/signup/")
    page.locator('input[name="email"]').fill(address)
    page.locator('input[name="password1"]').fill(password)
    page.locator('input[name="password2"]').fill(password)
    page.locator('main form button[type="submit"]').click()
    code = page.locator('input[name="code"]')
    expect(code).to_be_visible()
    code.fill(server.mailed_code(address))
    page.locator('main form button[type="submit"]').first.click()
    expect(page).to_have_url(re.compile(rf"/{lang}/accounts/profile/"))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_until_serving(url: str, process: subprocess.Popen[bytes], server: DaphneServer) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"daphne exited with {process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    pytest.fail(f"daphne did not answer {url} within {SERVER_START_TIMEOUT}s:\n{server.log()}")


@pytest.fixture(autouse=True)
def _require_chromium() -> None:
    # Autouse, so a test skips before its other fixtures start a server for nothing.
    if not CHROMIUM.exists():
        pytest.skip(INSTALL_HINT)


@pytest.fixture(scope="session")
def daphne_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaphneServer]:
    workdir = tmp_path_factory.mktemp("daphne")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "daifugo_site.settings.test",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
        "DAIFUGO_MAIL_DIR": str(workdir / "mail"),
    }
    server = DaphneServer(url="", env=env, log_path=workdir / "daphne.log")
    server.manage("migrate", "--noinput", "--verbosity", "0")
    server.manage("load_site_content")
    port = _free_port()
    server.url = f"http://127.0.0.1:{port}"
    with server.log_path.open("wb") as log:
        # Popen, not a shell `&`: the PID we stop is daphne's own (STACK.md trap 9).
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "daifugo_site.asgi:application"],
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        _wait_until_serving(f"{server.url}/zh-hans/", process, server)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def tutor_server(daphne_server: DaphneServer) -> DaphneServer:
    daphne_server.manage("load_lessons", "tests/tutorials/content")
    return daphne_server


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(INSTALL_HINT)
    from playwright.sync_api import sync_playwright

    home = tmp_path_factory.mktemp("chromium-home")
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env=env, headless=True
        )
        yield chromium
        chromium.close()


# An init script counting the page's socket frames, and the condition that the first one
# has come: a table is acted on, or measured, once its first frame (the whole table, swapped
# in over the page's own HTML) has arrived, as a person sees it come alive. Acting before
# it, under CI's load, a key press or a box could land on the part that frame replaces.
COUNT_FRAMES = (
    "document.addEventListener('htmx:wsAfterMessage', () => {"
    " window.__frames = (window.__frames || 0) + 1; });"
)
FIRST_FRAME = "() => window.__frames > 0"


# Drawn whole and on top: it lies inside the unscrolled screen, and its centre and points
# near its corners (inside any rounding) are on it: not cut off by a scrolling panel's
# edge, not under the bar or a sheet.
WHOLE_IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) { return false; }
  const x = (f) => r.left + r.width * f, y = (f) => r.top + r.height * f;
  const points = [[x(0.5), y(0.5)], [x(0.1), y(0.2)], [x(0.9), y(0.2)], [x(0.1), y(0.8)],
    [x(0.9), y(0.8)]];
  return points.every(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit));
  });
}"""


def phone_page(new_page: Any, locale: str, width: int = 390, height: int = 844) -> Any:
    """A phone's browser (touch, ``width``×``height``) whose socket frames are counted
    (``FIRST_FRAME``)."""
    page = new_page(
        locale=locale,
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
    )
    page.add_init_script(COUNT_FRAMES)
    return page


# Resolves once every finite animation and transition on the page has finished: measure a
# table at rest, not a card halfway through fading in (axe reads its half opacity as low
# contrast, a layout check sees it mid-flight).
SETTLED = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""

_PROBLEMS_KEY = "_daifugo_problems"


def page_problems(page: object) -> list[str]:
    """JavaScript errors, console errors and failed/4xx/5xx requests seen by ``page``."""
    problems: list[str] = getattr(page, _PROBLEMS_KEY)
    return problems


def watch_problems(page: Any) -> None:
    """Collect ``page``'s JavaScript errors, console errors and failed/4xx/5xx requests (for
    ``page_problems``); for a page a test opens itself, e.g. a second tab of a context."""
    problems: list[str] = []
    setattr(page, _PROBLEMS_KEY, problems)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type == "error"
            else None
        ),
    )
    page.on(
        "response",
        lambda response: (
            problems.append(f"HTTP {response.status} {response.url}")
            if response.status >= 400
            else None
        ),
    )
    # A navigation (a reload, a link followed before the last page finished loading)
    # cancels what the browser was still fetching for the old page: the favicon, a deferred
    # script, a sound (net::ERR_ABORTED). That is not a failure of the page: a missing file
    # is a 404 and is caught by the response check above. Every other failed request is.
    page.on(
        "requestfailed",
        lambda request: (
            None if _cancelled_by_navigation(request) else problems.append(f"failed {request.url}")
        ),
    )


def _cancelled_by_navigation(request: Any) -> bool:
    """Whether ``request`` is a static file or the favicon that a navigation cut short."""
    if "ABORTED" not in (request.failure or ""):
        return False
    path = urlsplit(request.url).path
    return path.endswith("/favicon.svg") or (
        request.method == "GET" and path.startswith("/static/")
    )


_HAND_STATE = """() => {
  const hand = document.querySelector('[data-testid="hand"]');
  if (!hand) { return null; }
  const version = hand.querySelector('input[name="v"]');
  const choice = hand.querySelector('[data-testid="choice"]');
  return {
    version: version ? version.value : null,
    yourTurn: hand.dataset.yourTurn === "true",
    owe: Number(hand.dataset.owe || "0"),
    legal: JSON.parse(hand.dataset.legal || "[]"),
    cards: Array.from(hand.querySelectorAll("button[data-card]")).map((b) => b.dataset.card),
    choice: choice ? {kind: choice.dataset.kind, count: Number(choice.dataset.count || "0")} : null,
  };
}"""


@dataclass(frozen=True)
class HandState:
    """One consistent read of the pushed hand: its own version, whose turn, what is owed, the
    legal moves and the cards. Read in one script so that a push landing between two reads
    cannot mix two tables (a version from one frame, "your turn" and the moves from the
    next: a test then acted twice on one turn, with cards the next frame no longer had)."""

    version: str | None
    your_turn: bool
    owe: int
    legal: list[dict[str, Any]]
    cards: list[str]
    choice: dict[str, Any] | None


def hand_state(page: Any) -> HandState | None:
    """The hand as one snapshot (``None`` when the page has no hand)."""
    raw = page.evaluate(_HAND_STATE)
    if raw is None:
        return None
    return HandState(
        version=raw["version"],
        your_turn=raw["yourTurn"],
        owe=raw["owe"],
        legal=raw["legal"],
        cards=raw["cards"],
        choice=raw["choice"],
    )


@pytest.fixture
def new_page(browser: object) -> Iterator[Callable[..., object]]:
    contexts = []

    def open_page(locale: str = "zh-CN", **context_options: object) -> object:
        context = browser.new_context(locale=locale, **context_options)  # type: ignore[attr-defined]
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        watch_problems(page)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[..., object]) -> object:
    return new_page()


# -- axe-core (npm), for the accessibility checks of test_axe.py ------------------------------

AXE_PATH = BASE_DIR / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_HINT = (
    f"axe-core not found at {AXE_PATH}: run `make axe` (npm install --prefix .cache/axe axe-core@4)"
)
_AXE_SOURCE: list[str] = []


def axe_script() -> str | None:
    """axe-core's source, to inject into a page; None when it is not installed.

    With ``AXE_REQUIRED`` set (CI sets it) a missing axe-core fails the test instead: the
    accessibility checks must never pass by being skipped there.
    """
    if not _AXE_SOURCE:
        if not AXE_PATH.exists():
            if os.environ.get("AXE_REQUIRED"):
                pytest.fail(f"AXE_REQUIRED is set but {AXE_HINT}")
            return None
        _AXE_SOURCE.append(AXE_PATH.read_text(encoding="utf-8"))
    return _AXE_SOURCE[0]
