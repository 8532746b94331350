from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import ngettext

from ..models import Hint

register = template.Library()


@register.simple_tag
def hints_used_text(game: Any) -> str:
    """ "Hints used: 2." for the game's human seat ("" before the first hint)."""
    n = Hint.objects.filter(game_id=game.id, seat=game.human_seat).count()
    if not n:
        return ""
    return ngettext("Hints used: %(n)s.", "Hints used: %(n)s.", n) % {"n": n}
