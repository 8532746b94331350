"""The 503 page and the outage test of daifugo_site/outage.py, in process (the real
outages are in tests/daifugo_site/play/test_faults.py)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, OperationalError
from django.test import RequestFactory

from daifugo_site import outage


@pytest.mark.parametrize(("lang", "words"), [("zh-hans", "数据库"), ("ja", "データベース")])
def test_a_database_outage_is_a_translated_503(lang: str, words: str) -> None:
    request = RequestFactory().get(f"/{lang}/play/abc/")
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        response = outage.server_error(request)
    body = response.content.decode()
    assert response.status_code == 503 and response["Retry-After"]
    assert words in body and "site.css" in body
    assert "database" not in body  # no English left


def test_other_errors_stay_500() -> None:
    request = RequestFactory().get("/ja/play/abc/")
    try:
        raise IntegrityError("duplicate key")
    except IntegrityError:
        response = outage.server_error(request)
    assert response.status_code == 500
    assert not outage.is_outage(ValueError("x"))
    wrapped = RuntimeError("a consumer's error")
    wrapped.__cause__ = OperationalError("server closed the connection")
    assert outage.is_outage(wrapped)  # what caused it counts
