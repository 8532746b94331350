"""Accounts' tests sign up as new visitors: allauth's limits (one confirmation mail per
address per 3 minutes, sign-ups per address) live in the cache, which outlives a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _fresh_limits() -> Iterator[None]:
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
