"""allauth's hooks: a new account in the language of the page it was created on; after
signing in, the profile in the account's own language; the display name in its messages."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext


def user_display(user: Any) -> str:
    """How allauth's messages name a person: their display name (ACCOUNT_USER_DISPLAY)."""
    from .signals import profile_for

    if not getattr(user, "pk", None):  # no account: nothing to name
        return ""
    return str(profile_for(user).display_name)


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def save_user(self, request: Any, user: Any, form: Any, commit: bool = True) -> Any:
        saved = super().save_user(request, user, form, commit=commit)
        if commit:
            from .signals import profile_for

            # The model's default is the site's default language; the person who signed
            # up on a Japanese page reads Japanese (and is sent back to it on signing in).
            language = translation.get_language()
            if language in dict(settings.LANGUAGES):
                profile = profile_for(saved)
                if profile.language != language:
                    profile.language = language
                    profile.save(update_fields=["language"])
        return saved

    def format_email_subject(self, subject: str) -> str:
        # allauth prefixes the host ("[127.0.0.1:8420] "): the site's name instead.
        return f"[{gettext('Daifugō Club')}] {subject}"

    def get_login_redirect_url(self, request: Any) -> str:
        from .signals import profile_for

        with translation.override(profile_for(request.user).language):
            return reverse("accounts:profile")
