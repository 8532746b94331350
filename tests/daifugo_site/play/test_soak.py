"""Issue 43's soak, the 2-minute version CI runs (``python -m daifugo_site.play.soak``):
8 games replaced as they end, on 2 web workers, a computer worker, Redis and PostgreSQL.
After 50 s of warm-up every process's memory stays within 10 %, Redis keys and PostgreSQL
connections stay bounded, and nothing fails. Skips without the servers, as the other
multi-process tests do; CI sets DAIFUGO_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from daifugo_site.play.localservices import BASE_DIR, missing

WHY = missing()
if WHY and os.environ.get("DAIFUGO_REQUIRE_SERVICES"):
    raise RuntimeError(f"DAIFUGO_REQUIRE_SERVICES is set but {WHY}")
pytestmark = pytest.mark.skipif(WHY is not None, reason=f"real services unavailable: {WHY}")


def test_two_minute_soak() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-m", "daifugo_site.play.soak", "--games", "8", "--minutes", "2",
         "--warmup", "50", "--every", "5", "--delay-ms", "50", "--json"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    report = done.stdout + done.stderr[-4000:]
    assert result["matches_finished"] >= 8, report  # games were replaced as they ended
    assert result["memory_flat"], report
    assert result["redis_bounded"] and result["pg_within_pools"], report
    assert result["client_errors"] == 0 and result["log_tracebacks"] == 0, report
    assert result["workers_alive"] and result["ok"] and done.returncode == 0, report
