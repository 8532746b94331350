"""Content-Security-Policy with nonces, htmx that evaluates nothing, Permissions-Policy.

The test settings enforce the same policy as production (base.py); test_deploy.py checks
the production server's answers too.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.html import find_all, find_one
from tests.tutorials.conftest import FIXTURES, LESSON


@pytest.fixture
def lessons(db: None) -> None:
    from tutorials.loader import load_content

    result = load_content(FIXTURES)
    assert result is not None and not result.refused


def _nonce(response: object) -> str:
    policy = response["Content-Security-Policy"]  # type: ignore[index]
    found = re.search(r"'nonce-([A-Za-z0-9+/=_-]+)'", policy)
    assert found, policy
    return found[1]


@pytest.mark.django_db
def test_the_inline_script_has_the_responses_nonce(lessons: None, client: Client) -> None:
    response = client.get(f"/ja/learn/{LESSON}/")
    assert response.status_code == 200
    nonce = _nonce(response)
    scripts = find_all(response.content.decode(), "script")
    inline = [s for s in scripts if not s.get("src")]
    assert len(inline) == 1 and inline[0].get("nonce") == nonce
    assert all(s.get("nonce") == nonce for s in scripts if "django_htmx/" in (s.get("src") or ""))
    assert _nonce(client.get(f"/ja/learn/{LESSON}/")) != nonce


@pytest.mark.django_db
def test_the_policy_allows_only_the_sites_own_code(content: None, client: Client) -> None:
    response = client.get("/zh-hans/rules/")
    policy = dict(
        (part.split()[0], part.split()[1:])
        for part in response["Content-Security-Policy"].split(";")
        if part.strip()
    )
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"][0] == "'self'" and policy["script-src"][1].startswith("'nonce-")
    assert len(policy["script-src"]) == 2
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'self'"]
    # No page has an inline style or event handler the policy would then break.
    html = response.content.decode()
    assert not re.search(r"\sstyle=|\son[a-z]+=", html)


@pytest.mark.django_db
def test_htmx_is_told_not_to_evaluate_code(client: Client) -> None:
    html = client.get("/ja/").content.decode()
    meta = find_one(html, "meta", name="htmx-config")
    config = json.loads(meta.get("content") or "{}")
    assert config["allowEval"] is False and config["allowScriptTags"] is False
    assert config["selfRequestsOnly"] is True and config["includeIndicatorStyles"] is False
    # The config comes before htmx reads it.
    assert html.index('name="htmx-config"') < html.index("django_htmx/htmx")


@pytest.mark.django_db
def test_permissions_policy_refuses_unused_features(client: Client) -> None:
    header = client.get("/ja/")["Permissions-Policy"]
    features = dict(item.strip().split("=", 1) for item in header.split(","))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert features[feature] == "()"
    # The table's sounds: the site's own pages only.
    assert features["autoplay"] == "(self)"


def test_every_environment_but_debug_development_enforces_the_policy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib

    from daifugo_site.settings import base, dev

    assert "csp.middleware.CSPMiddleware" in base.MIDDLEWARE
    assert "daifugo_site.security.PermissionsPolicyMiddleware" in base.MIDDLEWARE
    # `make run` (DEBUG off): enforced; DJANGO_DEBUG=1 (Django's debug pages use inline
    # styles and scripts): only reported.
    monkeypatch.delenv("DJANGO_DEBUG", raising=False)
    dev = importlib.reload(dev)
    assert dev.DEBUG is False
    assert dev.CONTENT_SECURITY_POLICY == base.CONTENT_SECURITY_POLICY
    monkeypatch.setenv("DJANGO_DEBUG", "1")
    dev = importlib.reload(dev)
    assert dev.DEBUG is True
    assert dev.CONTENT_SECURITY_POLICY is None
    assert dev.CONTENT_SECURITY_POLICY_REPORT_ONLY == base.CONTENT_SECURITY_POLICY
    monkeypatch.delenv("DJANGO_DEBUG")
    importlib.reload(dev)
