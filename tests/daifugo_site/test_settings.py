"""Settings: environment parsing, and production refusing to start without its secrets."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from daifugo_site.settings._env import channel_layers, database_from_url, env_list

BASE_DIR = Path(__file__).resolve().parents[2]
PROD = "daifugo_site.settings.prod"
SECRET = "x7Gk2-prod-test-key-2f9Q_vT8mL4nR6pW1sZ3yB5cD0eH7jK9uA2oI4"


def run_prod(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run manage.py with the production settings and only the given variables set."""
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("DJANGO_") and key not in {"DATABASE_URL", "REDIS_URL"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args, f"--settings={PROD}"],
        cwd=BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_prod_refuses_to_start_without_a_secret_key() -> None:
    result = run_prod("check", DJANGO_ALLOWED_HOSTS="daifugo.example.com")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_prod_refuses_to_start_without_allowed_hosts() -> None:
    result = run_prod("check", DJANGO_SECRET_KEY=SECRET)
    assert result.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS is not set" in result.stderr


def test_prod_deploy_check_is_clean() -> None:
    result = run_prod(
        "check",
        "--deploy",
        "--fail-level=WARNING",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS="daifugo.example.com,www.daifugo.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_env_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_HOSTS", " a.example, ,b.example ")
    assert env_list("SOME_HOSTS") == ["a.example", "b.example"]
    monkeypatch.delenv("SOME_HOSTS")
    assert env_list("SOME_HOSTS") == []


def test_postgres_url() -> None:
    config = database_from_url(
        "postgres://dai%40fu:p%2Fss@db.internal:6432/daifugo?sslmode=require"
    )
    assert config == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "daifugo",
        "USER": "dai@fu",
        "PASSWORD": "p/ss",
        "HOST": "db.internal",
        "PORT": "6432",
        "OPTIONS": {
            "sslmode": "require",
            "pool": {"min_size": 2, "max_size": 8, "timeout": 4},
            "options": "-c statement_timeout=5000",
        },
        "CONN_MAX_AGE": 0,
    }
    assert database_from_url("postgresql://localhost/x")["PORT"] == ""


def test_sqlite_urls() -> None:
    assert database_from_url("sqlite:////tmp/site.db")["NAME"] == Path("/tmp/site.db")
    assert database_from_url("sqlite:///site.db")["NAME"] == Path("site.db")
    with pytest.raises(ValueError, match="file path"):
        database_from_url("sqlite:///")


def test_unsupported_database_url() -> None:
    with pytest.raises(ValueError, match="Unsupported DATABASE_URL scheme 'mysql'"):
        database_from_url("mysql://x/y")


def test_channel_layers() -> None:
    backend = channel_layers(None)["default"]["BACKEND"]
    assert backend == "daifugo_site.channel_layers.SweepingInMemoryChannelLayer"
    from channels.layers import InMemoryChannelLayer
    from django.utils.module_loading import import_string

    assert issubclass(import_string(backend), InMemoryChannelLayer)
    assert channel_layers(None)["tasks"]["BACKEND"] == backend
    redis = channel_layers("redis://127.0.0.1:6379/0")
    hosts = {"hosts": [{"address": "redis://127.0.0.1:6379/0", "socket_timeout": 30}]}
    # Pages on pub/sub; the work queue (one worker per turn) on the list-based layer.
    assert redis["default"] == {
        "BACKEND": "daifugo_site.channel_layers.BoundedPubSubChannelLayer",
        "CONFIG": hosts,
    }
    assert redis["tasks"] == {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": hosts}
