from __future__ import annotations

from typing import Any

from django import template

from ..models import Hint

register = template.Library()


@register.filter
def hints_offered(game: Any) -> bool:
    """Practice games only: never in rated games or rooms (see sources.hints_offered)."""
    from ..sources import hints_offered as offered

    return offered(game)


@register.simple_tag
def hints_used_count(game: Any) -> int:
    """Hints the game's human seat asked for (the play page shows "Hints used: 2")."""
    return int(Hint.objects.filter(game_id=game.id, seat=game.human_seat).count())


@register.simple_tag
def checker_url(scenario: Any) -> str:
    """The rules checker opened on a scenario's table and plays (its check steps and its
    name left out: the checker shows what the engine says instead)."""
    import json
    from urllib.parse import urlencode

    from django.urls import reverse

    from ..checker import ACTION_STEPS, MAX_INPUT, scenario_as_input

    data = {k: v for k, v in dict(scenario).items() if k not in ("name", "steps")}
    data["steps"] = [
        step for step in scenario.get("steps", []) if any(k in step for k in ACTION_STEPS)
    ]
    text = json.dumps(scenario_as_input(data), ensure_ascii=False, separators=(",", ":"))
    if len(text) > MAX_INPUT:
        return reverse("review:checker")
    return f"{reverse('review:checker')}?{urlencode({'s': text})}"
