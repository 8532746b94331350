"""Computer players for every preset and table size: three levels, one interface.

Make a player with :func:`make_player` and ask it for moves with an
:class:`~rules_engine.observation.Observation` (what one seat may see) and a
random generator; the advanced player also takes a thinking :class:`Budget`::

    >>> import random
    >>> from rules_engine import RuleSet, Round, observe
    >>> r = Round.deal(RuleSet.preset("standard"), 4, seed=1)
    >>> obs = observe(r, r.to_act)
    >>> player = make_player("advanced")
    >>> move = player.choose_move(obs, random.Random(7), Budget(time_ms=100))
    >>> move in obs.legal
    True

In the exchange, ``choose_return(obs, rng)`` gives the card set to hand back
(``obs.owe`` cards of ``obs.hand``).
"""

from __future__ import annotations

from typing import Any

from .advanced import DEFAULT_BUDGET, AdvancedPlayer
from .base import Budget, Player
from .beginner import BeginnerPlayer
from .intermediate import IntermediatePlayer

LEVELS = ("beginner", "intermediate", "advanced")


def make_player(level: str, **kw: Any) -> Player:
    """A player of a level: ``beginner``, ``intermediate`` or ``advanced``.

    Keyword arguments go to the player's class (``name``; for the advanced
    player also ``budget``, a :class:`Budget` used when ``choose_move`` gets
    none).

    >>> make_player("intermediate").name
    'intermediate'
    >>> make_player("advanced", budget=Budget(time_ms=150)).budget.time_ms
    150
    """
    if level == "beginner":
        return BeginnerPlayer(**kw)
    if level == "intermediate":
        return IntermediatePlayer(**kw)
    if level == "advanced":
        return AdvancedPlayer(**kw)
    raise ValueError(f"unknown level {level!r} (one of {', '.join(LEVELS)})")


__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "AdvancedPlayer",
    "BeginnerPlayer",
    "Budget",
    "IntermediatePlayer",
    "Player",
    "make_player",
]
