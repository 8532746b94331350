"""What the players' pages tell the statistics: reconnects, rendering failures, device class.

Nothing here identifies anyone. Per (game, seat) a :class:`~.models.ClientTally` row keeps
counts and coarse buckets until the game ends, when :func:`fold` sums them into the
game's anonymous :class:`~.models.SiteStat` and deletes them.

- Reconnects are counted by the server: every socket of a player's page that connects to
  the game adds one to ``connects`` (:func:`connected`); a seat's reconnects are its
  connects after the first (a reload, a dropped network, a second tab).
- The page reports its device class and rendering failures in one small socket message,
  ``{"action": "client", "phone": true, "memory": 4, "cores": 8, "failures": 1}``
  (static/play/table.js): validated field by field (:func:`parse_report`), at most
  ``REPORTS_PER_CONNECTION`` per socket and one per ``REPORT_INTERVAL_S`` seconds, each
  adding at most ``MAX_FAILURES_PER_REPORT`` failures; the socket's message size limit and
  rate limit apply before any of this. Memory and cores are stored as buckets only.
- Browser and OS family come from the User-Agent header by :func:`browser_family` and
  :func:`os_family`: no maintained parser is installed here, and a family (not a version)
  is all the statistics keep, so a short ordered list of markers does; the header is read
  to at most ``UA_MAX_CHARS`` characters.

A person whose statistics are off (:func:`stats_on` false) has no row: nothing is sent
for them, and nothing is recorded.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F

from .models import ClientTally, Profile, StatsOptOut

UA_MAX_CHARS = 512
REPORTS_PER_CONNECTION = 20
REPORT_INTERVAL_S = 2.0
MAX_FAILURES_PER_REPORT = 50
#: A seat's failures stop counting here (a page in an error loop says no more than that).
MAX_FAILURES = 1000
MAX_CONNECTS = 10_000

# Order matters: a browser's User-Agent names the engines it descends from (Edge and
# Opera say "Chrome", Chrome says "Safari"), so the more specific marker comes first.
_BROWSERS = (
    ("Edg", "edge"),
    ("OPR/", "opera"),
    ("SamsungBrowser/", "samsung"),
    ("Firefox/", "firefox"),
    ("FxiOS/", "firefox"),
    ("CriOS/", "chrome"),
    ("Chrome/", "chrome"),
    ("Chromium/", "chrome"),
    ("Safari/", "safari"),
)
_SYSTEMS = (
    ("Windows", "windows"),
    ("Android", "android"),
    ("iPhone", "ios"),
    ("iPad", "ios"),
    ("iPod", "ios"),
    ("CrOS", "chromeos"),
    ("Mac OS X", "macos"),
    ("Macintosh", "macos"),
    ("Linux", "linux"),
)


def browser_family(user_agent: str) -> str:
    """The browser's family from a User-Agent, or "other".

    >>> browser_family("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
    ...     "Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0")
    'edge'
    >>> browser_family("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) "
    ...     "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
    'safari'
    >>> browser_family("curl/8.0")
    'other'
    """
    text = user_agent[:UA_MAX_CHARS]
    for marker, family in _BROWSERS:
        if marker in text:
            return family
    return "other"


def os_family(user_agent: str) -> str:
    """The operating system's family from a User-Agent, or "other".

    >>> os_family("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36")
    'android'
    >>> os_family("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15")
    'ios'
    >>> os_family("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15")
    'macos'
    """
    text = user_agent[:UA_MAX_CHARS]
    for marker, family in _SYSTEMS:
        if marker in text:
            return family
    return "other"


def memory_bucket(gigabytes: float) -> str:
    """navigator.deviceMemory (0.25 ... 8, rounded by the browser) as a bucket.

    >>> [memory_bucket(g) for g in (0.5, 2, 4, 8, 32)]
    ['<2', '2', '4', '8+', '8+']
    """
    if gigabytes < 2:
        return "<2"
    if gigabytes < 4:
        return "2"
    if gigabytes < 8:
        return "4"
    return "8+"


def cores_bucket(cores: int) -> str:
    """navigator.hardwareConcurrency as a bucket.

    >>> [cores_bucket(c) for c in (1, 4, 6, 8, 16)]
    ['1-2', '3-4', '5-8', '5-8', '9+']
    """
    if cores <= 2:
        return "1-2"
    if cores <= 4:
        return "3-4"
    if cores <= 8:
        return "5-8"
    return "9+"


def parse_report(content: dict[str, Any]) -> dict[str, Any] | None:
    """The fields of a page's report to store, or None when anything in it is not as
    described (a bad report changes nothing).

    >>> parse_report({"action": "client", "phone": True, "memory": 4, "cores": 8})
    {'phone': True, 'memory': '4', 'cores': '5-8', 'failures': 0}
    >>> parse_report({"action": "client", "failures": 3})
    {'failures': 3}
    >>> parse_report({"action": "client", "memory": "lots"}) is None
    True
    >>> parse_report({"action": "client", "failures": -1}) is None
    True
    """
    allowed = {"action", "phone", "memory", "cores", "failures"}
    if not set(content) <= allowed:
        return None
    out: dict[str, Any] = {}
    if "phone" in content:
        if not isinstance(content["phone"], bool):
            return None
        out["phone"] = content["phone"]
    if "memory" in content:
        memory = content["memory"]
        if isinstance(memory, bool) or not isinstance(memory, int | float):
            return None
        if not 0 < memory <= 1024:
            return None
        out["memory"] = memory_bucket(float(memory))
    if "cores" in content:
        cores = content["cores"]
        if isinstance(cores, bool) or not isinstance(cores, int) or not 0 < cores <= 1024:
            return None
        out["cores"] = cores_bucket(cores)
    failures = content.get("failures", 0)
    if isinstance(failures, bool) or not isinstance(failures, int):
        return None
    if not 0 <= failures <= MAX_FAILURES_PER_REPORT:
        return None
    out["failures"] = failures
    return out


def token_hash(token: str) -> str:
    """How a browser's player token is kept for its statistics switch (never the token)."""
    import hashlib

    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def stats_on(token: str | None, user: Any = None) -> bool:
    """Whether this person (the session's player token, and their account if signed in)
    records statistics."""
    if user is not None and getattr(user, "is_authenticated", False):
        if Profile.objects.filter(user=user, statistics=False).exists():
            return False
    if token:
        if StatsOptOut.objects.filter(token_hash=token_hash(token)).exists():
            return False
        if Profile.objects.filter(player_token=token, statistics=False).exists():
            return False
    return True


def connected(game_id: str, seat: int, user_agent: str, token: str | None, user: Any) -> bool:
    """A player's page of ``game_id`` connected (sync; from the socket's thread). Counts the
    connection and notes the browser and OS family; False (nothing written) when the
    person's statistics are off."""
    if not stats_on(token, user):
        return False
    tally, created = ClientTally.objects.get_or_create(
        game_id=game_id,
        seat=seat,
        defaults={
            "connects": 1,
            "browser": browser_family(user_agent),
            "os": os_family(user_agent),
        },
    )
    if not created and tally.connects < MAX_CONNECTS:
        ClientTally.objects.filter(pk=tally.pk).update(
            connects=F("connects") + 1,
            browser=browser_family(user_agent),
            os=os_family(user_agent),
        )
    return True


def reported(game_id: str, seat: int, report: dict[str, Any]) -> None:
    """Store a page's parsed report (:func:`parse_report`) on its seat's row (sync)."""
    fields = {k: report[k] for k in ("phone", "memory", "cores") if k in report}
    rows = ClientTally.objects.filter(game_id=game_id, seat=seat)
    failures = int(report.get("failures", 0))
    if failures:
        rows.filter(failures__lte=MAX_FAILURES - failures).update(failures=F("failures") + failures)
    if fields:
        rows.update(**fields)


def fold(game_id: str) -> dict[str, Any]:
    """The game's tallies as SiteStat fields (reconnects, render_failures, devices); the
    rows are deleted. Call inside the transaction that records the game."""
    rows = list(ClientTally.objects.filter(game_id=game_id).order_by("seat"))
    ClientTally.objects.filter(game_id=game_id).delete()
    return {
        "reconnects": sum(max(0, r.connects - 1) for r in rows),
        "render_failures": sum(r.failures for r in rows),
        "devices": [
            {
                "phone": r.phone,
                "memory": r.memory,
                "cores": r.cores,
                "browser": r.browser,
                "os": r.os,
            }
            for r in rows
        ],
    }


def forget(game_id: str) -> None:
    """A game recorded nothing (statistics off): its tallies go too."""
    ClientTally.objects.filter(game_id=game_id).delete()
