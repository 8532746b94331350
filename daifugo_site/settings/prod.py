"""Production: behind an HTTPS reverse proxy, PostgreSQL via DATABASE_URL, Redis via REDIS_URL.

Start-up fails loudly when a secret is missing rather than running with a guessable key or
answering every Host header. `manage.py check --deploy` is clean with these settings.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from ._env import admin_path, env_list
from .base import *  # noqa: F403

DEBUG = False

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set: production needs a long random secret key "
        '(e.g. python -c "import secrets; print(secrets.token_urlsafe(50))").'
    )

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS is not set: give the site's host names, comma-separated "
        "(e.g. daifugo.example.com). It also decides which WebSocket origins are accepted."
    )
# "*" would accept any Host header (password-reset links and absolute URLs built from it)
# and switch Channels' WebSocket origin check off: name the hosts.
if any("*" in host for host in ALLOWED_HOSTS):
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS contains '*': production needs the site's real host names "
        "(a leading dot, .example.com, allows the subdomains of one domain)."
    )

# The proxy terminates TLS and says so in X-Forwarded-Proto; trust only that header.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
# A year of HSTS, preload-ready: the site is only ever meant to be reached over HTTPS.
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
# Cookies never travel over plain HTTP.
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
# Forms posted through the proxy come from these origins (scheme included).
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS") or [
    origin
    for host in ALLOWED_HOSTS
    for origin in (
        # ".example.com" allows example.com and its subdomains, as in ALLOWED_HOSTS.
        [f"https://{host[1:]}", f"https://*.{host[1:]}"]
        if host.startswith(".")
        else [f"https://{host}"]
    )
]

# --- Admin path, WebSocket origins, security headers --------------------------------------
# DJANGO_ADMIN_PATH (e.g. "staff-7f3k/"), or else a path derived from the secret key:
# never /admin/, which every scanner tries. `manage.py admin_path` prints it.
ADMIN_PATH = admin_path(os.environ.get("DJANGO_ADMIN_PATH"), SECRET_KEY, derive=True)
# A WebSocket is accepted only from the site's own pages: exactly these origins (scheme,
# host and port), not Channels' host-only match that let http://host:1234 through.
WEBSOCKET_ALLOWED_ORIGINS = CSRF_TRUSTED_ORIGINS
