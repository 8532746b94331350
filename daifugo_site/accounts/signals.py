"""What happens at sign-up and sign-in: the profile, and a guest's things moving over.

A guest is a browser: its practice games are owned by the token in its session
(``play.services.PLAYER_TOKEN_KEY``) and its lesson progress by the tutor's token
(``tutorials.progress.TOKEN_KEY``). On sign-up and on every sign-in (allauth logs a new
account in, so both go through ``user_logged_in``) they become the account's:

- practice games: the account keeps one owner token for all its browsers; the guest's
  games are re-owned to it, and the session from then on carries the account's token;
- lesson progress: the guest's rows get the user, except for lessons the account has
  progress in already (the account's own place wins; the guest row is purged later).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.db import transaction

from daifugo_site.play import services as play_services
from daifugo_site.play.models import Game
from tutorials.models import Progress
from tutorials.progress import TOKEN_KEY as TUTOR_TOKEN_KEY

from .models import DISPLAY_NAME_MAX, Profile, generated_name


def profile_for(user: Any) -> Profile:
    profile = Profile.objects.filter(user=user).first()
    if profile is None:
        profile, _ = Profile.objects.get_or_create(
            user=user, defaults={"display_name": generated_name()[:DISPLAY_NAME_MAX]}
        )
    return profile


def adopt_puzzles(session: Any, user: Any) -> None:
    """The guest's puzzle rating and attempts become the account's (tutorials)."""
    from tutorials.puzzle_rating import adopt

    adopt(session, user)


def adopt_guest(request: Any, user: Any) -> None:
    """Move this browser's guest games and lesson progress to ``user``'s account."""
    session = request.session
    profile = profile_for(user)
    guest_token = session.get(play_services.PLAYER_TOKEN_KEY)
    with transaction.atomic():
        if not profile.player_token:
            profile.player_token = guest_token or play_services.player_token(session)
            profile.save(update_fields=["player_token"])
        elif guest_token and guest_token != profile.player_token:
            Game.objects.filter(owner=guest_token).update(owner=profile.player_token)
        session[play_services.PLAYER_TOKEN_KEY] = profile.player_token
        tutor_token = session.get(TUTOR_TOKEN_KEY)
        if tutor_token:
            taken = Progress.objects.filter(user=user).values_list("lesson_id", flat=True)
            Progress.objects.filter(session_token=tutor_token, user__isnull=True).exclude(
                lesson_id__in=list(taken)
            ).update(user=user)
        adopt_puzzles(session, user)


def _on_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        adopt_guest(request, user)


def connect() -> None:
    user_logged_in.connect(_on_login, dispatch_uid="accounts-adopt-guest")
