"""Settings shared by every environment.

dev.py, test.py and prod.py import everything from here and change only what differs, the
way djangoproject.com splits its settings. Nothing here is secret: secrets come from the
environment, and only prod.py insists on them.
"""

from __future__ import annotations

import os
from pathlib import Path

from csp.constants import NONCE

from ._env import channel_layers, database_from_url, env_list, sqlite_database

# The repository root: manage.py, templates/, locale/ and static/ live here.
BASE_DIR = Path(__file__).resolve().parent.parent.parent

# Safe defaults: each environment turns on what it needs.
DEBUG = False
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
# Django's own CSRF page is English and talks about DEBUG: the site's 403 page instead.
CSRF_FAILURE_VIEW = "daifugo_site.errors.csrf_failure"

INSTALLED_APPS = [
    # First, so that `manage.py runserver` is daphne's ASGI server (WebSockets included).
    "daphne",
    # Before the admin, so the admin's forms get the per-language fields it registers.
    "modeltranslation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    # Failed admin logins counted per user name and IP address, then locked out.
    "axes",
    # SimpleAppConfig: we set up the partials loader ourselves in TEMPLATES below instead of
    # letting the app rewrite TEMPLATES at start-up, so what runs is what this file says.
    "template_partials.apps.SimpleAppConfig",
    # Accounts: sign up / in / out, password reset, e-mail addresses (django-allauth).
    "allauth",
    "allauth.account",
    # The site's own apps.
    "daifugo_site.ui",
    "daifugo_site.pages",
    "daifugo_site.play",
    "daifugo_site.review",
    "daifugo_site.rooms",
    "daifugo_site.accounts",
    "daifugo_site.rated",
    "tutorials",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Right after SecurityMiddleware, as whitenoise asks: static files skip the rest.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (which may redirect using the language).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # allauth's login flow state (required by allauth 65).
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # request.htmx for views that answer htmx requests with a fragment.
    "django_htmx.middleware.HtmxMiddleware",
    # Content-Security-Policy with a nonce per response; Permissions-Policy (see below).
    "csp.middleware.CSPMiddleware",
    "daifugo_site.security.PermissionsPolicyMiddleware",
    # Inside CSP (its page needs the nonce): the site's page for bodiless error answers.
    "daifugo_site.errors.ErrorPageMiddleware",
    # Last, as django-axes asks: it turns a lockout into its answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "daifugo_site.urls"
# The ASGI application serves HTTP and WebSockets; there is no WSGI entry point.
ASGI_APPLICATION = "daifugo_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Site-wide templates (base layout, components) live in the repository's templates/.
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # template_partials' loader wraps the cached loader so "page.html#fragment"
            # names work; htmx views render a fragment of the page that holds it.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
        },
    },
    {
        # The table's per-move fragments only (daifugo_site/ui/jinja.py says why): macros in
        # jinja2/, called by the push and included in Django pages by {% fragment %}. Kept
        # second, and in its own folder, so no page name resolves to it by accident.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "daifugo_site.ui.jinja.environment",
            "autoescape": True,
        },
    },
]

# SQLite next to the code unless DATABASE_URL points at PostgreSQL (see README).
DATABASES = {
    "default": (
        database_from_url(os.environ["DATABASE_URL"])
        if os.environ.get("DATABASE_URL")
        else sqlite_database(BASE_DIR / "db.sqlite3")
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# In-memory channel layer for one process; REDIS_URL for several workers.
CHANNEL_LAYERS = channel_layers(os.environ.get("REDIS_URL"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Languages ---------------------------------------------------------------------------
# Simplified Chinese first: it is the default and the fallback for untranslated strings.
# Language names are written in their own language (not translated) so that a reader of
# either language finds theirs in the switcher.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [
    ("zh-hans", "简体中文"),
    ("ja", "日本語"),
]
USE_I18N = True
# One catalogue for the whole site; folders are named by locale (zh_Hans), not language.
LOCALE_PATHS = [BASE_DIR / "locale"]
# modeltranslation: fields are title_zh_hans and title_ja; fall back to Chinese.
MODELTRANSLATION_DEFAULT_LANGUAGE = "zh-hans"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("zh-hans",)

TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files ------------------------------------------------------------------------
# daphne does not serve /static/: whitenoise does, in every environment.
STATIC_URL = "static/"
# DJANGO_STATIC_ROOT: where collectstatic writes (a deployment may keep it outside the code).
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO"},
}

# --- Practice games (daifugo_site/play) ----------------------------------------------------
# Pause before each computer move so a person can follow the table (a game may choose its own).
PLAY_COMPUTER_DELAY_MS = int(os.environ.get("PLAY_COMPUTER_DELAY_MS", "700"))
# Thinking time of the advanced computer player per move.
PLAY_COMPUTER_BUDGET_MS = int(os.environ.get("PLAY_COMPUTER_BUDGET_MS", "450"))
# Per-connection flood limit: sustained messages per second, and the burst allowed.
PLAY_MESSAGES_PER_SECOND = 5.0
PLAY_MESSAGE_BURST = 12

# --- Housekeeping (manage.py purge; schedule it daily, see README) -------------------------
# What `purge` deletes, by age in days since the row was last written; 0 keeps them forever.
# Sessions are deleted when they expire (SESSION_COOKIE_AGE, two weeks by default).
# A game nobody has moved in for a week is abandoned (its link then finds no game).
PURGE_UNFINISHED_GAMES_DAYS = int(os.environ.get("PURGE_UNFINISHED_GAMES_DAYS", "7"))
# Finished games stay reachable from their link for a month (scores, "play again"); there
# are no accounts to keep a history for, so nothing is lost after that.
PURGE_FINISHED_GAMES_DAYS = int(os.environ.get("PURGE_FINISHED_GAMES_DAYS", "30"))
# A guest's lesson progress lives as long as their session cookie could still find it:
# past two session lifetimes of not being touched, nobody can (signed-in users' is kept).
PURGE_GUEST_PROGRESS_DAYS = int(os.environ.get("PURGE_GUEST_PROGRESS_DAYS", "30"))
# Anonymous game statistics (daifugo_site/accounts/sitestats.py) are kept 30 days.
PURGE_SITE_STATS_DAYS = int(os.environ.get("PURGE_SITE_STATS_DAYS", "30"))
# Candidate puzzles from players' games that an admin rejected (tutorials/mine_games.py).
PURGE_REJECTED_PUZZLES_DAYS = int(os.environ.get("PURGE_REJECTED_PUZZLES_DAYS", "30"))
# Rows per DELETE statement: a purge of a big backlog never holds one long transaction.
PURGE_BATCH_SIZE = 1000

# --- Admin, login throttling, browser security policies ------------------------------------
# The admin's URL prefix (daifugo_site/urls.py). Development and tests keep admin/; prod.py
# takes DJANGO_ADMIN_PATH or derives a path nobody can guess from the secret key.
ADMIN_PATH = "admin/"

# django-axes (maintained by Jazzband, made for exactly this: django.contrib.auth logins,
# the admin's included; the project has no allauth whose rate limits could do it): after 10
# failed logins for one user name from one IP address, or 10 from one address whatever the
# names, that login is refused for an hour, even with the right password. A success resets
# the count. The address is REMOTE_ADDR: daphne --proxy-headers sets it from the proxy's
# X-Forwarded-For (README), so it is the visitor's, not the proxy's.
AUTHENTICATION_BACKENDS = [
    # First, so a locked-out login is refused before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # Site accounts sign in by e-mail address (django-allauth).
    "allauth.account.auth_backends.AuthenticationBackend",
]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
# The refusal is a translated page (templates/axes/lockout.html), status 429.
AXES_LOCKOUT_TEMPLATE = "axes/lockout.html"
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False
# allauth's login form calls its field "login" and authenticates with email=...; the admin
# uses username=...: one name for both, so both count against the same user name.
AXES_USERNAME_CALLABLE = "daifugo_site.accounts.auth.axes_username"

# --- Accounts (django-allauth; daifugo_site/accounts) ---------------------------------------
# Sign in with an e-mail address and a password; the display name lives on the profile.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = "username"
# allauth names the person in its messages ("Signed in as …"): the profile's display name,
# not the user name it makes from the e-mail address's local part.
ACCOUNT_USER_DISPLAY = "daifugo_site.accounts.adapter.user_display"
# Nobody learns from these pages whether an address has an account (issue 45): signing up
# answers the same for a new and a known address ("enter the code we mailed you": a new
# address gets its code, a known one a notice that it has an account already), and the
# password reset answers alike and mails nothing to an address without an account. allauth
# can hide this at sign-up only when the address must be confirmed before the account is
# used, so it must: by a six-character code typed on the next page (no switching to a
# link on a phone), after which the new account is signed in.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = True
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
LOGIN_REDIRECT_URL = "accounts:profile"
# After signing in: the profile in the language the account chose (accounts/adapter.py).
ACCOUNT_ADAPTER = "daifugo_site.accounts.adapter.AccountAdapter"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
LOGIN_URL = "account_login"
# Failed logins are counted by ONE mechanism, django-axes (above): it already guards the
# admin, keeps its counts in the database (all workers, survives restarts) and shows the
# translated lockout page; allauth's own "login_failed" limit (5 per 5 min per address,
# in the cache) would be a second, different and stricter rule for the same thing, so it
# is off. allauth's other limits stay: they guard what axes does not see (sign-ups per
# address, reset mails per address and per account, confirmation mails).
ACCOUNT_RATE_LIMITS = {"login_failed": None}
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "noreply@daifugo.invalid")
# Production mail (password resets, confirmations) goes through this SMTP server;
# development prints mail (dev.py), tests keep it in memory (test.py).
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("DJANGO_EMAIL_USE_TLS", "1") == "1"

# Content-Security-Policy (django-csp 4): only the site's own scripts, styles, images and
# sockets. The one inline script and htmx's script tags carry the response's nonce
# (request.csp_nonce); htmx is configured in base.html not to evaluate code (no hx-on, no
# inline scripts in swapped fragments). Enforced everywhere but development (dev.py only
# reports, so Django's debug pages keep their inline styles).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        # 'self' covers the same host's ws:/wss: in current browsers (CSP level 3).
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Features the site never uses, refused to every frame (daifugo_site.security).
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer", "camera", "display-capture", "encrypted-media",
        "geolocation", "gyroscope", "magnetometer", "microphone", "midi", "payment",
        "picture-in-picture", "publickey-credentials-get", "screen-wake-lock", "serial",
        "usb", "xr-spatial-tracking",
    )
}  # fmt: skip
# The table's sounds (static/play/sounds.js) play after the person's first gesture, as the
# sound plays on a later push: "autoplay=()" would leave that to each browser's reading of
# the policy, so the site's own frames may play sound; no other origin may.
PERMISSIONS_POLICY["autoplay"] = ["self"]
# Production lists its exact WebSocket origins here (prod.py); None = Channels' check of the
# Origin's host against ALLOWED_HOSTS (any scheme and port: dev servers on any port).
WEBSOCKET_ALLOWED_ORIGINS: list[str] | None = None

# --- Limits per connection, session and address (daifugo_site/limits.py) -----------------
# Each is an environment variable too, so a load test or a busy site can move it without a
# code change. The defaults are far above what a person at a table does.
# Counters shared by processes live in this cache: local memory (bounded: LocMem culls past
# MAX_ENTRIES) for one process; Redis when REDIS_URL is set, so several workers count
# together. (Django's own Redis backend; redis-py comes with channels-redis, the prod extra.)
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
        }
        if os.environ.get("REDIS_URL")
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    )
}
LIMITS_CACHE = "default"
# A socket counter forgets a count leaked by a killed process after this long.
LIMIT_GAUGE_TTL_S = int(os.environ.get("LIMIT_GAUGE_TTL_S", str(6 * 3600)))
# A client that stops reading is dropped once this many bytes wait to be written to it
# (beyond what the kernel's socket buffer already holds): a few full table pushes.
LIMIT_SEND_BACKLOG_BYTES = int(os.environ.get("LIMIT_SEND_BACKLOG_BYTES", str(256 * 1024)))
# Frames read from a client but not yet taken by its consumer (limits.InboundBound): a
# client past either bound is dropped, so one client's flood holds at most this much.
LIMIT_INBOUND_MESSAGES = int(os.environ.get("LIMIT_INBOUND_MESSAGES", "64"))
LIMIT_INBOUND_BYTES = int(os.environ.get("LIMIT_INBOUND_BYTES", str(256 * 1024)))
# Quick messages at a table of people (play/phrases.py), per seat: one every few seconds
# and a few a minute, so a phrase cannot be used to flood the others' seats and logs.
PLAY_SAY_GAP_S = int(os.environ.get("PLAY_SAY_GAP_S", "3"))
PLAY_SAY_PER_MINUTE = int(os.environ.get("PLAY_SAY_PER_MINUTE", "10"))
# WebSockets open at once from one address (all pages, all games): a family or a classroom
# behind one router fits; a script opening thousands does not.
# Behind a proxy, daphne needs --proxy-headers (README) or every visitor is the proxy.
LIMIT_SOCKETS_PER_IP = int(os.environ.get("LIMIT_SOCKETS_PER_IP", "60"))
# ... and from one browser session (a player with many tabs open is far below it).
LIMIT_SOCKETS_PER_SESSION = int(os.environ.get("LIMIT_SOCKETS_PER_SESSION", "20"))
# The ping socket (a health check): small messages, a few a second.
PING_MAX_MESSAGE_BYTES = 1024
PING_MESSAGES_PER_SECOND = float(os.environ.get("PING_MESSAGES_PER_SECOND", "2"))
PING_MESSAGE_BURST = int(os.environ.get("PING_MESSAGE_BURST", "5"))
# Play socket messages: an action is a few dozen bytes, never nested.
PLAY_MAX_MESSAGE_BYTES = 4096
PLAY_MAX_MESSAGE_DEPTH = 4
# Viewer sockets per game (the owner's pages are not counted): friends watching, not a crowd.
PLAY_MAX_VIEWERS_PER_GAME = int(os.environ.get("PLAY_MAX_VIEWERS_PER_GAME", "25"))
# New games per minute from one browser session and from one address, and unfinished
# games a session may hold. A game untouched for PLAY_ABANDONED_AFTER_S no longer counts
# as unfinished, so a player who walks away from games is never locked out for good.
PLAY_GAMES_PER_MINUTE_PER_SESSION = int(os.environ.get("PLAY_GAMES_PER_MINUTE_PER_SESSION", "6"))
PLAY_GAMES_PER_MINUTE_PER_IP = int(os.environ.get("PLAY_GAMES_PER_MINUTE_PER_IP", "20"))
PLAY_MAX_UNFINISHED_GAMES = int(os.environ.get("PLAY_MAX_UNFINISHED_GAMES", "5"))
PLAY_ABANDONED_AFTER_S = int(os.environ.get("PLAY_ABANDONED_AFTER_S", "3600"))

# --- Computer players (daifugo_site/play/computers.py; README "Production") ---------------
# Where computer seats are driven: "local" = in the web process, searching in its own
# process pool (the embedded default: one daphne, SQLite, in-memory layer); "workers" =
# web processes only post turns to the "computers" channel and `manage.py computers`
# processes (any number, on any machine reaching Redis and the database) play them.
# Several web workers need "workers": a turn must be driven where leases are shared.
PLAY_COMPUTERS = os.environ.get("PLAY_COMPUTERS") or (
    "workers" if os.environ.get("REDIS_URL") else "local"
)
# With "workers": a practice game whose computers do not search (beginner, intermediate;
# computers.QUICK_LEVELS) is driven by the web worker that received its move, not handed to
# a computer worker. Thinking costs those levels well under a millisecond, less than the
# hand-over (a Redis message each way, a lease, the game read again): six interleaved pairs
# of the play bench at 60 beginner games measured 4.24 ms of the stack's CPU a move handed
# over and 3.74 ms driven in place (issue 43, docs/production.md). Rooms, rated games and
# any game with a searching seat still go to the computer workers; a killed web worker's
# turns are picked up by their sweep.
PLAY_QUICK_ON_WEB = os.environ.get("PLAY_QUICK_ON_WEB", "1") != "0"
# Search processes per driving process: a search is CPU-bound, so more than the cores
# only queues inside the OS instead of in the fair queue. Half the cores by default,
# leaving the rest to the web workers on the same machine.
PLAY_COMPUTER_PROCESSES = int(
    os.environ.get("PLAY_COMPUTER_PROCESSES") or max(1, (os.cpu_count() or 2) // 2)
)
# Computations of one session (game owner) running at once; the queue serves sessions
# round-robin, so one visitor's many games cannot starve another's one game.
PLAY_COMPUTER_SLOTS_PER_SESSION = int(os.environ.get("PLAY_COMPUTER_SLOTS_PER_SESSION", "1"))
# The advanced player's budget: playouts, plus PLAY_COMPUTER_BUDGET_MS above as a cap on
# CPU time of the searching thread (not wall time: load slows it, never weakens it). The
# rules_engine's own default: with the compiled engine the 450 ms cap binds first (about
# 2,000-4,000 playouts a move); 600 had been chosen for the pure-Python engine.
PLAY_COMPUTER_PLAYOUTS = int(os.environ.get("PLAY_COMPUTER_PLAYOUTS", "6000"))
# At a game's pace (its delay_ms) the search gets the pace less this margin, so a chosen
# move is published at the pace like a forced pass (play/computers.py budget()); never
# less than the floor (a pace that short is not offered).
PLAY_PACE_MARGIN_MS = int(os.environ.get("PLAY_PACE_MARGIN_MS", "100"))
PLAY_PACE_MIN_BUDGET_MS = 50
# Hands the engine's move caches keep in a web worker or a computer worker (neither
# searches: the search runs in the pool's processes, with the engine's default of 20,000).
# At about 1.3 kB a hand, the default bound alone let a worker grow by some 15 MB over a
# 30-minute soak (issue 43); 2,000 hold a worker's working set.
ENGINE_SERVING_CACHE_ENTRIES = int(os.environ.get("ENGINE_SERVING_CACHE_ENTRIES", "2000"))
# A driver's claim on a game: renewed every third of this while it thinks; a killed
# worker's turn is picked up by the sweep once it has expired.
PLAY_LEASE_MS = 3000
# Leases in Redis are shared by every process; without Redis they live in the one process.
PLAY_LEASE_REDIS_URL = os.environ.get("REDIS_URL") or None
# The sweep (every process that drives or posts turns) looks for unfinished games whose
# computer seat is to act and that nobody drives: after a killed worker or a restart.
PLAY_SWEEP_SECONDS = 2.0
PLAY_SWEEP_MAX_AGE_S = 24 * 3600
PLAY_SWEEP_MAX_ROWS = 5000
# Threads that run async code's database calls at once in one process (daifugo_site/asyncdb.py),
# with PostgreSQL only (SQLite keeps Channels' single database thread): below the psycopg
# pool's 8 connections (settings/_env.py), so a call never waits for a connection.
DB_ASYNC_THREADS = int(os.environ.get("DB_ASYNC_THREADS", "6"))
# Connections of each event loop's own pool, for the one statement a move is (asyncdb.execute,
# PostgreSQL only): a move whose state the process holds skips the database thread. 0 sends
# every move through the threads as before. With the threads' pool (max 8), a process holds
# at most 8 + this many connections.
DB_LOOP_CONNECTIONS = int(os.environ.get("DB_LOOP_CONNECTIONS", "2"))
DB_LOOP_TIMEOUT_S = 4.0
# Games driven at once by one process (each is a small task; the pool bounds the CPU).
PLAY_MAX_DRIVERS = 10_000

# Game reviews (daifugo_site/review): the most playouts per candidate move in a reviewed
# decision; most decisions stop far earlier, once their verdict is settled (analysis.compare).
# A 3-round 4-player match (~32 decisions) then takes 4-10 s of one core, so the 60 s target
# holds even at load ~10 on this 2-core machine (figures in the review app's README).
REVIEW_WORLDS = int(os.environ.get("REVIEW_WORLDS", "120"))
# Hints answer while the player waits: a smaller budget (about half a second).
REVIEW_HINT_WORLDS = int(os.environ.get("REVIEW_HINT_WORLDS", "60"))
# Reviews running at once in one process (each takes pool slots of its own owner).
REVIEW_MAX_JOBS = 64
# Decisions of one review searched at once: the second only while a pool process is idle
# and nothing else waits for it (a free core shortens a review; a busy one is not taken).
REVIEW_PARALLEL = max(1, int(os.environ.get("REVIEW_PARALLEL", "2")))

# Rooms (daifugo_site/rooms): a room nobody has touched (nor played in) for this many hours
# is closed; its games stay readable. A round's result stays on screen this long before the
# computer starts the next round of a room table whose people have not pressed "next".
ROOMS_ABANDONED_AFTER_H = int(os.environ.get("ROOMS_ABANDONED_AFTER_H", "12"))
ROOMS_NEXT_ROUND_S = int(os.environ.get("ROOMS_NEXT_ROUND_S", "30"))
# Rooms one session may create per hour (a room holds seats and games for hours).
ROOMS_PER_HOUR_PER_SESSION = int(os.environ.get("ROOMS_PER_HOUR_PER_SESSION", "20"))
# Presence: each open game page of a seated person is a row its worker renews every
# ROOMS_HEARTBEAT_S; a row not renewed for ROOMS_CONNECTION_STALE_S counts no more (its
# worker died with the socket open). Four beats of margin: a loaded worker's late beat must
# not hand a present person's seat to the computer.
ROOMS_HEARTBEAT_S = float(os.environ.get("ROOMS_HEARTBEAT_S", "5"))
ROOMS_CONNECTION_STALE_S = float(os.environ.get("ROOMS_CONNECTION_STALE_S", "20"))

# --- The rated 1v1 (daifugo_site/rated) ---------------------------------------------------
# Each move has RATED_MOVE_SECONDS; past them the mover's reserve runs (RATED_RESERVE_SECONDS
# for the whole game), and when that is gone too the computer plays the turn for them.
RATED_MOVE_SECONDS = int(os.environ.get("RATED_MOVE_SECONDS", "30"))
RATED_RESERVE_SECONDS = int(os.environ.get("RATED_RESERVE_SECONDS", "60"))
# A player with no page of the game open for this long loses it (a reload is seconds).
RATED_ABSENT_SECONDS = int(os.environ.get("RATED_ABSENT_SECONDS", "90"))
# Pairing: ratings this far apart pair at once; the window widens each second a player
# waits, so after a minute and a half anyone waiting is paired with anyone.
RATED_WINDOW_START = 100.0
RATED_WINDOW_PER_S = 10.0
RATED_WINDOW_MAX = 1000.0
# How often a waiting page asks for an opponent (seconds).
RATED_QUEUE_POLL_S = 1.0
# A waiting player whose page has not asked for this long (closed) is not paired.
RATED_QUEUE_STALE_S = 10.0
# A rating is provisional (shown with "?" and left off the leaderboard) for this many games.
RATED_PROVISIONAL_GAMES = 10
RATED_LEADERBOARD_SIZE = 50
