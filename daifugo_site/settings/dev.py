"""Local development: `make run` serves these with daphne on 127.0.0.1:8000."""

from __future__ import annotations

import os

from .base import *  # noqa: F403
from .base import CONTENT_SECURITY_POLICY, STORAGES

DEBUG = True
# A fixed key is fine on a developer's machine; prod.py refuses to start without a real one.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or "django-insecure-dev-only-not-for-production"
# Browsers reach the dev server under either name; the WebSocket origin check uses this list.
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

# No hashed file names in development: whitenoise serves straight from the finders
# (WHITENOISE_USE_FINDERS follows DEBUG), so edits to CSS show up without collectstatic.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# The policy is reported (browser console), not enforced: Django's debug pages use inline
# styles and scripts. Test and production settings enforce it.
CONTENT_SECURITY_POLICY_REPORT_ONLY = CONTENT_SECURITY_POLICY
CONTENT_SECURITY_POLICY = None

# Mail (password reset, address confirmation) is printed in the server's console.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
