"""Settings for pytest (pyproject.toml names this module) and the browser tests' daphne."""

from __future__ import annotations

import os

from ._env import channel_layers
from .base import *  # noqa: F403
from .base import STORAGES

# DEBUG stays False, as in production: tests see the pages users see.
SECRET_KEY = "django-insecure-test-only-not-for-production"
# "testserver" is Django's test client; the others are the browser tests' daphne.
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]

# Always the in-process layer, whatever REDIS_URL says: tests must not depend on a server
# they did not start. A test that wants Redis overrides CHANNEL_LAYERS itself.
CHANNEL_LAYERS = channel_layers(None)
# The same for the cache that holds the limits' counters (daifugo_site/limits.py).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Plain storage: tests render {% static %} without a collectstatic manifest, and the
# browser tests' daphne serves static files from the finders through whitenoise.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Hashing passwords slowly is a security feature, not something to test 1000 times.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Computer seats answer at once in tests; the delay is a courtesy to human eyes.
PLAY_COMPUTER_DELAY_MS = 0
PLAY_COMPUTER_BUDGET_MS = int(os.environ.get("PLAY_COMPUTER_BUDGET_MS", "50"))
# Scripted clients act as fast as the server answers; the flood test sets its own limit.
PLAY_MESSAGES_PER_SECOND = 500.0
PLAY_MESSAGE_BURST = 100

# django-axes needs the request in authenticate(), which the test client's login() does not
# pass: off by default so tests can log in; tests/security/test_admin.py turns it on.
AXES_ENABLED = False

# Computer seats are driven in the test process, searching in one pool process. The
# multi-process tests (tests/daifugo_site/play/test_multiprocess.py) start real workers
# with DAIFUGO_TEST_REDIS_URL pointing at a throwaway Redis they started themselves.
_TEST_REDIS = os.environ.get("DAIFUGO_TEST_REDIS_URL") or None
if _TEST_REDIS:
    CHANNEL_LAYERS = channel_layers(_TEST_REDIS)
PLAY_COMPUTERS = "workers" if _TEST_REDIS else "local"
PLAY_LEASE_REDIS_URL = _TEST_REDIS
PLAY_COMPUTER_PROCESSES = int(os.environ.get("PLAY_COMPUTER_PROCESSES", "1"))
# The bench sets the site's real budget through the environment.
PLAY_COMPUTER_PLAYOUTS = int(os.environ.get("PLAY_COMPUTER_PLAYOUTS", "200"))
# No background sweep unless a test asks for it (it would outlive each test's loop).
PLAY_SWEEP_SECONDS = float(os.environ.get("PLAY_SWEEP_SECONDS", "0"))

# Reviews and hints in tests: a few playouts per candidate (the figures in docs/site.md come
# from the real budget; the tests check behaviour, not strength).
REVIEW_WORLDS = 12
REVIEW_HINT_WORLDS = 8

# Mail stays in memory (pytest reads django.core.mail.outbox; the browser tests' daphne
# sends sign-up confirmations nowhere instead of to an SMTP server that is not there).
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# The browser tests' daphne writes its mail to files instead, where a test reads the
# sign-up code a person would read in their mailbox.
if os.environ.get("DAIFUGO_MAIL_DIR"):
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = os.environ["DAIFUGO_MAIL_DIR"]
