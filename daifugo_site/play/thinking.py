"""What a computer seat does, as a pure function: runs in a pool process, not in Django.

The web processes and the computer workers hand :func:`think` an engine
:class:`~rules_engine.observation.Observation` (the seat's own view: nothing hidden leaves
the process that owns the game), the level, a seed and a budget; it returns an engine
:class:`~rules_engine.Action`. Everything here imports only ``rules_engine``, so a pool
process started with ``spawn`` never sets Django up, and a search can run nowhere but in
such a process (the web event loops only await its result).

:func:`safe_action` is the fallback when a player raises or its move is refused: the
intermediate heuristic's choice, else the weakest legal play (a pass when one is allowed).
"""

from __future__ import annotations

import gc
import os
import random

from rules_engine import Action, format_cards
from rules_engine.ai import Budget, make_player
from rules_engine.cards import iter_indices
from rules_engine.moves import Move
from rules_engine.observation import Observation


def _action(seat: int, move: Move) -> Action:
    if move.is_pass:
        return Action.pass_(seat)
    form = move.form_name if move.ambiguous else None
    return Action("play", seat, format_cards(move.cards), form)


def think(obs: Observation, level: str, seed: str, budget: Budget) -> Action:
    """The computer's action for ``obs`` (deterministic for a playouts-only budget)."""
    player = make_player(level)
    rng = random.Random(seed)
    if obs.phase == "exchange":
        return Action.give(obs.seat, format_cards(player.choose_return(obs, rng)))
    return _action(obs.seat, player.choose_move(obs, rng, budget))


def safe_action(obs: Observation) -> Action:
    """A legal action for the seat that cannot fail the way a search might."""
    try:
        return think(obs, "intermediate", "safe", Budget(playouts=1))
    except Exception:  # noqa: BLE001 - the fallback of the fallback must not raise
        pass
    if obs.phase == "exchange":
        # The lowest cards owed: always a legal return.
        low = list(iter_indices(obs.hand))[: obs.owe]
        return Action.give(obs.seat, format_cards(sum(1 << c for c in low)))
    legal = list(obs.legal)
    passes = [m for m in legal if m.is_pass]
    if passes:
        return _action(obs.seat, passes[0])
    return _action(obs.seat, min(legal, key=lambda m: (m.size, m.low)))


def warm_up() -> None:
    """Pool process initialiser: import and exercise the engine once, then move every
    object alive now (modules, tables, caches) out of the collector's reach.

    ``gc.freeze()`` replaces the old process-wide ``gc.disable()`` during searches: the
    collector stays on (cyclic garbage is still freed), but its full collections no
    longer walk the long-lived engine objects, which is what made them slow (see the
    README's figures)."""
    from rules_engine import Round, RuleSet, observe

    r = Round.deal(RuleSet.preset("standard"), 4, seed=os.getpid())
    think(observe(r, r.to_act), "advanced", "warm-up", Budget(playouts=50))
    gc.collect()
    gc.freeze()
