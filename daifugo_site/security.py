"""Deployment guards that Django and Channels do not give as they are.

- ``PermissionsPolicyMiddleware``: the ``Permissions-Policy`` header (Django 5.2 has no
  setting for it): the site uses no camera, microphone, location, payment...
- ``WebsocketHostValidator``: a WebSocket handshake is checked against ``ALLOWED_HOSTS``
  like an HTTP request (Channels checks only the Origin), so a socket opened under a
  forged Host header is refused.
- ``ExactOriginValidator``: production accepts only the exact origins of the site
  (``https://`` + each host, default port), where Channels' own validator ignores the
  scheme and the port (``http://host:1234`` passed).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port, validate_host

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[Any]]


class PermissionsPolicyMiddleware:
    """Adds ``Permissions-Policy`` from ``settings.PERMISSIONS_POLICY`` (feature -> allow
    list; an empty list is ``()``, nobody)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        policy: dict[str, list[str]] = getattr(settings, "PERMISSIONS_POLICY", {})
        self.header = ", ".join(
            f"{feature}=({' '.join(allow)})" for feature, allow in policy.items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.header and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = self.header
        return response


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin1")
    return None


class WebsocketHostValidator:
    """Refuse a WebSocket whose Host header is not in ``ALLOWED_HOSTS``."""

    def __init__(self, application: ASGIApp) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            host = _header(scope, b"host")
            if host is None:
                # As Django's HTTP side: no Host header means the server's own name. (Every
                # browser sends Host; the check is against forged names, e.g. DNS
                # rebinding, which always send one.)
                server = scope.get("server")
                if not server:
                    return await self.application(scope, receive, send)
                host = str(server[0])
            domain, _port = split_domain_port(host)
            allowed = list(settings.ALLOWED_HOSTS)
            if settings.DEBUG and not allowed:
                allowed = [".localhost", "127.0.0.1", "[::1]"]  # as Django's HTTP side
            if not domain or not validate_host(domain, allowed):
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


def normalise_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` lower-cased, the scheme's default port dropped.

    >>> normalise_origin("HTTPS://Daifugo.Example.com:443")
    'https://daifugo.example.com'
    >>> normalise_origin("http://localhost:8000")
    'http://localhost:8000'
    >>> normalise_origin("null") is None
    True
    """
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        return None
    default = {"http": 80, "https": 443}[parts.scheme]
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    suffix = f":{port}" if port is not None and port != default else ""
    return f"{parts.scheme}://{host}{suffix}"


def origin_allowed(origin: str, allowed: Iterable[str]) -> bool:
    """Exact match on scheme, host and port; ``https://*.example.com`` allows subdomains.

    >>> sites = ["https://daifugo.example.com", "https://*.example.org"]
    >>> origin_allowed("https://daifugo.example.com", sites)
    True
    >>> origin_allowed("http://daifugo.example.com", sites)
    False
    >>> origin_allowed("https://daifugo.example.com:8443", sites)
    False
    >>> origin_allowed("http://localhost:8000", sites)
    False
    >>> origin_allowed("https://a.example.org", sites), origin_allowed("https://example.org", sites)
    (True, False)
    """
    found = normalise_origin(origin)
    if found is None:
        return False
    for pattern in allowed:
        if "://*." in pattern:
            scheme, rest = pattern.split("://*.", 1)
            wanted = normalise_origin(f"{scheme}://{rest}")
            if wanted is None:
                continue
            wanted_scheme, wanted_host = wanted.split("://", 1)
            got_scheme, got_host = found.split("://", 1)
            if got_scheme == wanted_scheme and got_host.endswith(f".{wanted_host}"):
                return True
        elif normalise_origin(pattern) == found:
            return True
    return False


class ExactOriginValidator:
    """Refuse a WebSocket whose Origin is not one of ``allowed`` exactly."""

    def __init__(self, application: ASGIApp, allowed: Iterable[str]) -> None:
        self.application = application
        self.allowed = tuple(allowed)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            if origin is None or not origin_allowed(origin, self.allowed):
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
