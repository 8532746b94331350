"""What a computer seat does, as a pure function: runs in a pool process, not in Django.

The web processes and the computer workers hand :func:`think` an engine
:class:`~rules_engine.observation.Observation` (the seat's own view: nothing hidden leaves
the process that owns the game), the level, a seed and a budget; it returns an engine
:class:`~rules_engine.Action`. Everything here imports only ``rules_engine``, so a pool
process started with ``spawn`` never sets Django up, and a search can run nowhere but in
such a process (the web event loops only await its result).

:func:`safe_action` is the fallback when a player raises or its move is refused: the
intermediate heuristic's choice, else the weakest legal play (a pass when one is allowed).
A seat that owes a house-rule choice (7渡し, 10捨て, 12ボンバー) makes it the same ways:
``choose_choice`` of its level, the heuristic's as the fallback.
"""

from __future__ import annotations

import gc
import os
import random
import time

from rules_engine import Action, format_cards
from rules_engine.ai import Budget, IntermediatePlayer, make_player
from rules_engine.cards import iter_indices
from rules_engine.moves import Move
from rules_engine.observation import Observation
from rules_engine.state import NAME_CHOICE, rank_text


def _action(seat: int, move: Move) -> Action:
    if move.is_pass:
        return Action.pass_(seat)
    form = move.form_name if move.ambiguous else None
    return Action("play", seat, format_cards(move.cards), form)


def think(obs: Observation, level: str, seed: str, budget: Budget) -> Action:
    """The computer's action for ``obs`` (deterministic for a playouts-only budget)."""
    # The advanced player searches its exchange returns too, within the same budget.
    player = make_player(level, budget=budget) if level == "advanced" else make_player(level)
    rng = random.Random(seed)
    if obs.phase == "exchange":
        return Action.give(obs.seat, format_cards(player.choose_return(obs, rng)))
    if _owes(obs):
        return _choice(obs, player.choose_choice(obs, rng, budget))
    return _action(obs.seat, player.choose_move(obs, rng, budget))


def _owes(obs: Observation) -> bool:
    """Whether ``obs``'s seat owes a house-rule choice (RULES.md section 8) now."""
    return obs.owed_choice is not None and obs.owed_choice[0] == obs.seat


def _choice(obs: Observation, choice: int) -> Action:
    """The action that makes ``choice`` (cards to give or discard, or ranks to name)."""
    assert obs.owed_choice is not None
    if obs.owed_choice[1] == NAME_CHOICE:
        return Action.name(obs.seat, rank_text(choice))
    return Action.choose(obs.seat, format_cards(choice))


def safe_action(obs: Observation, heuristic: bool = True) -> Action:
    """A legal action for the seat that cannot fail the way a search might: the
    intermediate level's choice without its search (the heuristic; under the rules the
    learned policy was fitted to, that policy's best move), or (``heuristic=False``, or
    when that raises) the weakest legal play: a pass when allowed, else the smallest,
    lowest move; in the exchange the lowest cards owed."""
    if heuristic:
        try:
            player = IntermediatePlayer(playouts=0)
            rng = random.Random(0)
            if obs.phase == "exchange":
                return Action.give(obs.seat, format_cards(player.choose_return(obs, rng)))
            if _owes(obs):
                return _choice(obs, player.choose_choice(obs, rng, Budget(playouts=1)))
            return _action(obs.seat, player.choose_move(obs, rng, Budget(playouts=1)))
        except Exception:  # noqa: BLE001 - the fallback of the fallback must not raise
            pass
    if _owes(obs):
        # The first legal choice: the lowest cards, or the lowest ranks.
        from rules_engine.ai.choices import observation_choices

        return _choice(obs, observation_choices(obs)[0])
    if obs.phase == "exchange":
        low = list(iter_indices(obs.hand))[: obs.owe]
        return Action.give(obs.seat, format_cards(sum(1 << c for c in low)))
    legal = list(obs.legal)
    passes = [m for m in legal if m.is_pass]
    if passes:
        return _action(obs.seat, passes[0])
    return _action(obs.seat, min(legal, key=lambda m: (m.size, m.low)))


def _exit_with_parent(every_s: float = 1.0) -> None:
    """End this pool process once the process that started it is gone.

    A killed worker (SIGKILL, a supervisor's stop after its timeout) cannot shut its pool
    down, and the pool's processes, blocked reading their call queue, did not notice: they
    were found alive, reparented to init, long after the benches and tests that started
    them. A watchdog thread compares the parent's pid with the one at start-up."""
    import threading

    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(every_s)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def warm_up() -> None:
    """Pool process initialiser: import and exercise the engine once, then move every
    object alive now (modules, tables, caches) out of the collector's reach.

    ``gc.freeze()`` replaces the old process-wide ``gc.disable()`` during searches: the
    collector stays on (cyclic garbage is still freed), but its full collections no
    longer walk the long-lived engine objects, which is what made them slow (see the
    figures in docs/production.md)."""
    from rules_engine import Round, RuleSet, observe

    _exit_with_parent()
    r = Round.deal(RuleSet.preset("standard"), 4, seed=os.getpid())
    think(observe(r, r.to_act), "advanced", "warm-up", Budget(playouts=50))
    gc.collect()
    gc.freeze()


def serving_caches(entries: int) -> None:
    """Bound the engine's hand caches in a long-lived process that serves pages or plays
    the heuristic levels (a web worker, a computer worker), not a search. The search's own
    processes keep the engine's larger default (their playouts fill it usefully). Issue 43:
    the soak saw each such process grow by about 15 MB in 30 minutes while the sequences
    cache (about 1.3 kB a hand) filled towards its 20,000 hands."""
    from rules_engine import moves
    from rules_engine.ai import heuristics

    moves.set_sequence_cache_limit(entries)
    heuristics.set_plan_cache_limit(entries)
