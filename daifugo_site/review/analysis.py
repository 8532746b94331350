"""The review's and the hint's search, as pure functions: they run in a pool process.

Like :mod:`daifugo_site.play.thinking`, this module imports only ``rules_engine``, so the
computer-player processes (started with ``spawn``) run it without Django, and the web
event loops only await its result.

Honesty
    Every function here takes the reviewed seat's :class:`~rules_engine.Observation` (what
    that player knew when deciding) and a seed derived from public facts (the game id and
    the decision's index), never a full state. Two games whose other hands differ but whose
    observation is the same get the same review, word for word (tests/daifugo_site/review/
    test_analysis.py reshuffles the other hands to check it).

How a decision is judged
    The candidates are the advanced player's own (every distinct kind of legal move, the
    heuristic's first, see :class:`~rules_engine.ai.advanced.AdvancedPlayer`) plus the
    move actually made. Each candidate is played out in the same sampled worlds (the
    *j*-th playout of every candidate uses world *j* and the same rollout generator), so
    the difference between two candidates is measured on equal deals: its standard error
    is that of a paired difference, much smaller than either mean's. Points are the
    match's: n-1 for first place down to 0 for last.

    When only one other player still holds cards and every unseen card must be in that
    hand, the observation fixes the whole position: the engine's solver then answers
    exactly which first moves force the better of the two remaining places, and the
    review reports that verdict (and exact points) instead of estimates.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from rules_engine import Action, Move, Observation, Refusal, Round, format_cards, parse_cards
from rules_engine.ai.advanced import AdvancedPlayer, _playout
from rules_engine.ai.intermediate import (
    context_from_observation,
    heuristic_move,
    legal_version,
    plan,
)
from rules_engine.ai.worlds import WorldSampler
from rules_engine.cards import count
from rules_engine.observation import round_from_observation
from rules_engine.solver import SolverLimit, solve

#: Positions the exact solver may search per decision (bounded: a review must finish).
SOLVER_NODES = 60_000
#: A difference smaller than this many standard errors is not called a mistake.
MISTAKE_Z = 2.5
#: ... nor one smaller than this many points (a quarter of one place).
MISTAKE_MIN_COST = 0.25


@dataclass(frozen=True)
class Budget:
    """Playouts per candidate (worlds), and the most candidates searched."""

    worlds: int = 40
    candidates: int = 8


def move_text(move: Move) -> str:
    """A move as the site stores it: ``pass``, or card codes (``/form`` when ambiguous)."""
    if move.is_pass:
        return "pass"
    text = format_cards(move.cards)
    return f"{text}/{move.form_name}" if move.ambiguous else text


def action_move(obs: Observation, action: Action) -> Move | None:
    """The legal move of ``obs`` that ``action`` made (None: not a legal play or pass)."""
    if action.kind == "pass":
        return next((m for m in obs.legal if m.is_pass), None)
    if action.kind != "play" or action.cards is None:
        return None
    try:
        cards = parse_cards(action.cards, max(2, obs.rules.jokers))
    except ValueError:
        return None
    found = [m for m in obs.legal if not m.is_pass and m.cards == cards]
    if action.form is not None:
        found = [m for m in found if m.form_name == action.form]
    return found[0] if found else None


def move_action(seat: int, move: Move) -> Action:
    if move.is_pass:
        return Action.pass_(seat)
    return Action(
        "play", seat, format_cards(move.cards), move.form_name if move.ambiguous else None
    )


def candidates(obs: Observation, limit: int) -> list[Move]:
    """The advanced player's candidate moves for ``obs`` (its heuristic choice first)."""
    legal = list(obs.legal)
    ctx = context_from_observation(obs)
    prior = legal_version(heuristic_move(ctx, legal if ctx.top is not None else None), legal)
    found = AdvancedPlayer()._candidates(obs, prior)
    return found[: max(1, limit)]


def exact_world(obs: Observation) -> Round | None:
    """The whole position, when the observation alone fixes it: one other player still
    holds cards, and every card the seat cannot see must be in that hand."""
    active = [s for s in range(obs.players) if obs.counts[s] > 0]
    if obs.seat not in active or len(active) != 2:
        return None
    other = active[0] if active[1] == obs.seat else active[1]
    unseen = obs.unseen()
    if count(unseen) != obs.counts[other]:
        return None
    hands = [0] * obs.players
    hands[obs.seat] = obs.hand
    hands[other] = unseen
    return round_from_observation(obs, hands)


def _points(obs: Observation, place: int) -> float:
    return float(obs.players - 1 - place)


def _verdict(obs: Observation, made: Move) -> dict[str, Any] | None:
    """The solver's exact answer, when the observation fixes the position."""
    r = exact_world(obs)
    if r is None:
        return None
    # Seats out cleanly are above for good; the two left share the next two places.
    place = sum(1 for s in obs.out if s not in obs.penalised)
    try:
        sol = solve(r, obs.seat, place, SOLVER_NODES, all_moves=True)
    except SolverLimit:
        return None
    winning = [move_text(m) for m in sol.winning_moves]
    return {
        "place": place + 1,
        "winnable": sol.proven,
        "winning": winning,
        "made_wins": move_text(made) in winning,
        "win_points": _points(obs, place),
        "lose_points": _points(obs, place + 1),
    }


def _split_units(obs: Observation, move: Move) -> list[str]:
    """Groups or sequences of the hand (as the computer players plan it) that ``move``
    breaks: it takes some of their cards, not all."""
    if move.is_pass:
        return []
    broken = []
    for unit in plan(obs.hand, obs.rules, obs.revolution):
        if unit.size < 2:
            continue
        shared = unit.cards & move.cards
        if shared and shared != unit.cards:
            broken.append(format_cards(unit.cards))
    return broken


def review_decision(
    obs: Observation, made_action: Action, seed: str, budget: Budget
) -> dict[str, Any]:
    """Judge the decision ``made_action`` took in ``obs``; a JSON-able dict (see module)."""
    if made_action.kind == "give":
        return review_return(obs, made_action, seed, budget)
    made = action_move(obs, made_action)
    if made is None:
        raise ValueError("the action is not a legal move of this observation")
    found = candidates(obs, budget.candidates)
    if made not in found:
        found.append(made)
    verdict = _verdict(obs, made)
    hero = obs.seat
    k = len(found)
    totals = [0.0] * k
    squares = [0.0] * k
    diffs: list[list[float]] = [[] for _ in range(k)]
    worlds = 0
    if verdict is not None:
        wins = set(verdict["winning"])
        means = [
            verdict["win_points"] if move_text(m) in wins else verdict["lose_points"] for m in found
        ]
        errors = [0.0] * k
        # The solver lists every winning move: add one when the candidates missed it.
        if wins and not any(move_text(m) in wins for m in found):
            extra = next(m for m in obs.legal if move_text(m) in wins)
            found.append(extra)
            means.append(verdict["win_points"])
            errors.append(0.0)
        made_index = found.index(made)
        best = max(range(len(found)), key=lambda i: (means[i], i == made_index, -i))
        cost = means[best] - means[made_index]
        cost_se = 0.0
    else:
        rng = random.Random(seed)
        sampler = WorldSampler(obs, rng)
        pool: list[list[int]] = []
        made_index = found.index(made)
        values = [[0.0] * budget.worlds for _ in range(k)]
        for j in range(budget.worlds):
            while len(pool) <= j:
                pool.extend(sampler.sample_worlds(min(24, 8 + len(pool)), 3))
            world = round_from_observation(obs, pool[j])
            for c, move in enumerate(found):
                r = world.apply(move)
                assert not isinstance(r, Refusal)
                # The same rollout generator for every candidate in world j.
                value = float(_playout(r, hero, random.Random(f"{seed}:{j}"), 0.0))
                values[c][j] = value
                totals[c] += value
                squares[c] += value * value
        worlds = budget.worlds
        n = float(worlds)
        means = [t / n for t in totals]
        errors = [
            math.sqrt(max(0.0, squares[c] / n - means[c] ** 2) / max(1.0, n - 1)) for c in range(k)
        ]
        best = max(range(k), key=lambda i: (round(means[i], 9), i == made_index, -i))
        for c in range(k):
            diffs[c] = [values[best][j] - values[c][j] for j in range(worlds)]
        d = diffs[made_index]
        cost = sum(d) / n
        var = sum((x - cost) ** 2 for x in d) / max(1.0, n - 1)
        cost_se = math.sqrt(var / n)
    is_mistake = cost >= MISTAKE_MIN_COST and (cost_se == 0.0 or cost > MISTAKE_Z * cost_se)
    return {
        "kind": "pass" if made.is_pass else "play",
        "made": move_text(made),
        "best": move_text(found[best]),
        "made_mean": round(means[made_index], 3),
        "made_se": round(errors[made_index], 3),
        "best_mean": round(means[best], 3),
        "best_se": round(errors[best], 3),
        "cost": round(max(0.0, cost), 3),
        "cost_se": round(cost_se, 3),
        "mistake": bool(is_mistake),
        "worlds": worlds,
        "candidates": len(found),
        "verdict": verdict,
        "broke": _split_units(obs, made) if is_mistake else [],
        # Every candidate's expected points (the bench compares searches with them).
        "means": {move_text(m): round(means[i], 3) for i, m in enumerate(found)},
    }


def hint(obs: Observation, seed: str, budget: Budget) -> dict[str, Any]:
    """The advanced player's suggestion for ``obs`` with the reasons the page tells: its
    expected points against the heuristic's move, the solver's verdict when exact, and
    the hand's groups the suggestion keeps whole."""
    if obs.phase == "exchange":
        from rules_engine.ai.intermediate import return_cards

        cards = return_cards(obs.hand, obs.owe, obs.rules)
        return {"kind": "give", "best": format_cards(cards)}
    if not obs.legal:
        raise ValueError("not this seat's turn")
    if len(obs.legal) == 1:
        only = obs.legal[0]
        return {"kind": "forced", "best": move_text(only)}
    # Judge the heuristic's own move: the answer then says how much better the search's
    # choice is than the obvious one (or that the obvious one is best).
    first = candidates(obs, 1)[0]
    result = review_decision(obs, move_action(obs.seat, first), seed, budget)
    result["kind"] = "hint"
    result["obvious"] = result.pop("made")
    return result


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: the log index of its action, the round, the
    seat's observation just before it, and the action taken."""

    index: int
    round_no: int
    obs: Observation
    action: Action


def decisions(record: dict[str, Any], seat: int) -> list[Decision]:
    """Every play or pass of ``seat`` in a stored game that had a choice (forced moves,
    a lone legal move, are left out: nothing to learn from them), and every exchange
    return it made."""
    from rules_engine import Match

    rec = dict(record)
    actions = [Action.from_json(a) for a in rec.get("actions", [])]
    rec["actions"] = []
    m = Match.from_record(rec)
    found: list[Decision] = []
    for i, action in enumerate(actions):
        if action.seat == seat and action.kind in ("play", "pass"):
            obs = m.observe(seat)
            if len(obs.legal) > 1:
                found.append(Decision(i, m.round_no, obs, action))
        elif action.seat == seat and action.kind == "give":
            found.append(Decision(i, m.round_no, m.observe(seat), action))
        out = m.apply(action)
        if isinstance(out, Refusal):
            raise ValueError(f"action {i} refused on replay: {out.reason}")
        m = out
    return found


#: Exchange returns compared at most (the heuristic's, the one made, then the weakest).
RETURN_CANDIDATES = 6


def return_candidates(obs: Observation, made: int) -> list[int]:
    """Card sets worth comparing as the return: the heuristic's choice, the one made, and
    the sets of ``owe`` cards among the hand's weakest cards."""
    from itertools import combinations

    from rules_engine.ai.base import strength
    from rules_engine.ai.intermediate import return_cards
    from rules_engine.cards import JOKER_UNIT, REAL_MASK, iter_indices, rank_of

    found = [return_cards(obs.hand, obs.owe, obs.rules)]
    if made not in found:
        found.append(made)
    real = list(iter_indices(obs.hand & REAL_MASK))
    real.sort(key=lambda c: (strength(rank_of(c), obs.revolution), c))
    singles = [1 << c for c in real] + [JOKER_UNIT] * (obs.hand >> 52)
    weakest = singles[:6]
    for combo in combinations(weakest, obs.owe):
        cards = sum(combo)
        if cards not in found:
            found.append(cards)
        if len(found) >= RETURN_CANDIDATES:
            break
    return found


def review_return(
    obs: Observation, made_action: Action, seed: str, budget: Budget
) -> dict[str, Any]:
    """Judge an exchange return: each candidate set is given in the same sampled worlds
    and the round played out (the other seats' own returns, unknown to this seat, are
    left out of the worlds: an approximation the page does not hide, see the figures)."""
    assert made_action.cards is not None
    made = parse_cards(made_action.cards, max(2, obs.rules.jokers))
    found = return_candidates(obs, made)
    hero = obs.seat
    k = len(found)
    values = [[0.0] * budget.worlds for _ in range(k)]
    sampler = WorldSampler(obs, random.Random(seed))
    pool: list[list[int]] = []
    for j in range(budget.worlds):
        while len(pool) <= j:
            pool.extend(sampler.sample_worlds(min(24, 8 + len(pool)), 3))
        world = round_from_observation(obs, pool[j])
        for c, cards in enumerate(found):
            r = world.give(hero, cards)
            if isinstance(r, Refusal):
                raise ValueError(f"return refused: {r.reason}")
            values[c][j] = float(_playout(r, hero, random.Random(f"{seed}:{j}"), 0.0))
    n = float(budget.worlds)
    means = [sum(v) / n for v in values]
    errors = [
        math.sqrt(max(0.0, sum(x * x for x in v) / n - means[c] ** 2) / max(1.0, n - 1))
        for c, v in enumerate(values)
    ]
    made_index = found.index(made)
    best = max(range(k), key=lambda i: (round(means[i], 9), i == made_index, -i))
    d = [values[best][j] - values[made_index][j] for j in range(budget.worlds)]
    cost = sum(d) / n
    cost_se = math.sqrt(sum((x - cost) ** 2 for x in d) / max(1.0, n - 1) / n)
    is_mistake = cost >= MISTAKE_MIN_COST and cost > MISTAKE_Z * cost_se
    return {
        "kind": "give",
        "made": format_cards(made),
        "best": format_cards(found[best]),
        "made_mean": round(means[made_index], 3),
        "made_se": round(errors[made_index], 3),
        "best_mean": round(means[best], 3),
        "best_se": round(errors[best], 3),
        "cost": round(max(0.0, cost), 3),
        "cost_se": round(cost_se, 3),
        "mistake": bool(is_mistake),
        "worlds": budget.worlds,
        "candidates": k,
        "verdict": None,
        "broke": [],
        "means": {format_cards(c): round(means[i], 3) for i, c in enumerate(found)},
    }
