"""Glue between django-allauth and django-axes (settings: AXES_USERNAME_CALLABLE)."""

from __future__ import annotations

from typing import Any


def axes_username(request: Any, credentials: dict[str, Any] | None) -> str | None:
    """The name a failed login counts against: the admin's ``username``, allauth's
    ``email`` (its form field is ``login``). Lower-cased: ``A@x`` and ``a@x`` are one
    account, so they share one count."""
    credentials = credentials or {}
    name = credentials.get("username") or credentials.get("email")
    if not name and request is not None:
        data = getattr(request, "POST", None) or {}
        name = data.get("login") or data.get("username")
    return str(name).strip().lower()[:254] if name else None
