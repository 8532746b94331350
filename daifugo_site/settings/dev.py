"""Local development: `make run` serves these with daphne on 127.0.0.1:8000."""

from __future__ import annotations

import os

from .base import *  # noqa: F403
from .base import CONTENT_SECURITY_POLICY, STORAGES

# Off unless asked for (DJANGO_DEBUG=1 make run): `make run` is also how people try the
# site, and Django's debug pages (a mistyped address, an error) are English-only; with
# DEBUG off they get the site's own 404/500 pages in their language.
DEBUG = os.environ.get("DJANGO_DEBUG") == "1"
# A fixed key is fine on a developer's machine; prod.py refuses to start without a real one.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or "django-insecure-dev-only-not-for-production"
# Browsers reach the dev server under either name; the WebSocket origin check uses this list.
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

# No hashed file names in development, and whitenoise serves straight from the finders
# (whatever DEBUG says), so edits to CSS show up without collectstatic.
WHITENOISE_USE_FINDERS = True
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# With DEBUG on, the policy is reported (browser console), not enforced: Django's debug
# pages use inline styles and scripts. Otherwise it is enforced, as in test and production.
if DEBUG:
    CONTENT_SECURITY_POLICY_REPORT_ONLY = CONTENT_SECURITY_POLICY
    CONTENT_SECURITY_POLICY = None

# Mail (password reset, address confirmation) is printed in the server's console.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
