"""allauth's hooks: after signing in, the profile in the account's own language."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.urls import reverse
from django.utils import translation


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def get_login_redirect_url(self, request: Any) -> str:
        from .signals import profile_for

        with translation.override(profile_for(request.user).language):
            return reverse("accounts:profile")
