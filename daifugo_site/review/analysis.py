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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules_engine import Action, Move, Observation, Refusal, Round, format_cards, parse_cards
from rules_engine.ai.advanced import AdvancedPlayer, playout
from rules_engine.ai.heuristics import (
    context_from_observation,
    heuristic_move,
    legal_version,
    plan,
)
from rules_engine.ai.worlds import WorldSampler
from rules_engine.cards import (
    JOKER_SHIFT,
    JOKER_UNIT,
    RANK_2,
    RANK_3,
    RANK_MASKS,
    count,
    iter_indices,
)
from rules_engine.effects import EIGHT_CUT, PENALISED, REVOLUTION, forbidden_finish
from rules_engine.moves import analyse
from rules_engine.observation import round_from_observation
from rules_engine.solver import SolverLimit, solve
from rules_engine.state import PLAY as PLAY_PHASE

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
    #: Stop once the verdict is settled (see :func:`compare`); False plays every world
    #: (the agreement bench's longer search).
    settle: bool = True


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


#: Worlds played out before the figures are first looked at, then between two looks.
FIRST_LOOK = 24
LOOK_EVERY = 12
#: A candidate this many standard errors (and at least DROP_MARGIN points) worse than the
#: leader, on the same worlds, is played out no further: it cannot become the best.
DROP_Z = 3.0
DROP_MARGIN = 0.05
#: The verdict is settled early when no candidate can be MISTAKE_MIN_COST better than the
#: move made within SETTLE_Z standard errors; or, from BAD_LOOK worlds on (the best of
#: several noisy means is biased upwards, and a standard error of few worlds is itself
#: noisy), when the move made is a mistake by BAD_Z standard errors above MISTAKE_MIN_COST.
SETTLE_Z = 2.0
BAD_LOOK = 48
BAD_Z = 3.0


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over the worlds both were played in."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, 0.0
    d = [a[j] - b[j] for j in range(n)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def _mean(v: list[float]) -> float:
    return sum(v) / len(v) if v else 0.0


@dataclass(frozen=True)
class Comparison:
    """Every candidate's playout values (one per world it was played in), the best one,
    and the paired cost of the move made."""

    values: list[list[float]]
    best: int
    cost: float
    cost_se: float
    worlds: int


def compare(
    k: int, made: int, value: Callable[[int, int], float], most: int, settle: bool = True
) -> Comparison:
    """Play candidates ``0..k-1`` out in worlds ``0, 1, ...`` (``value(j, c)``: candidate
    ``c`` in world ``j``) until the verdict on ``made`` is settled or ``most`` worlds.

    Stopping early: from FIRST_LOOK worlds on, every LOOK_EVERY worlds, a candidate
    clearly worse than the leader is dropped (never the move made), and the search stops
    once the move made is clearly a mistake or clearly not one. Everything is a function
    of the values, so the comparison stays a function of the observation and the seed.

    >>> cmp = compare(2, 1, lambda j, c: float(c == 0) * 2.0, 120)
    >>> cmp.best, cmp.cost, cmp.worlds
    (0, 2.0, 48)
    >>> compare(2, 1, lambda j, c: 1.0, 120).worlds
    24
    """
    values: list[list[float]] = [[] for _ in range(k)]
    active = list(range(k))
    worlds = 0
    for j in range(most):
        for c in active:
            values[c].append(value(j, c))
        worlds = j + 1
        if not settle or worlds < FIRST_LOOK or (worlds - FIRST_LOOK) % LOOK_EVERY:
            continue
        if worlds == most:
            break
        leader = max(active, key=lambda c: (round(_mean(values[c]), 9), c == made, -c))
        for c in list(active):
            if c in (leader, made):
                continue
            gap, se = _paired(values[leader], values[c])
            if gap > DROP_MARGIN and gap > DROP_Z * se:
                active.remove(c)
        cost, se = _paired(values[leader], values[made])
        clearly_bad = worlds >= BAD_LOOK and cost - BAD_Z * se >= MISTAKE_MIN_COST
        clearly_fine = all(
            gain + SETTLE_Z * se_c < MISTAKE_MIN_COST
            for gain, se_c in (_paired(values[c], values[made]) for c in active if c != made)
        )
        if clearly_bad or clearly_fine:
            break
    best = max(active, key=lambda c: (round(_mean(values[c]), 9), c == made, -c))
    cost, cost_se = _paired(values[best], values[made])
    return Comparison(values, best, cost, cost_se, worlds)


def _errors(values: list[list[float]]) -> list[float]:
    out = []
    for v in values:
        n = len(v)
        if n < 2:
            out.append(0.0)
            continue
        m = sum(v) / n
        out.append(math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1) / n))
    return out


def review_decision(
    obs: Observation,
    made_action: Action,
    seed: str,
    budget: Budget,
    pending: tuple[Pending, ...] = (),
) -> dict[str, Any]:
    """Judge the decision ``made_action`` took in ``obs``; a JSON-able dict (see module).
    ``pending``: the exchange returns other seats still owe (public), for a return."""
    if made_action.kind == "give":
        return review_return(obs, made_action, seed, budget, pending)
    if made_action.kind in ("choose", "name"):
        return review_choice(obs, made_action, seed, budget)
    made = action_move(obs, made_action)
    if made is None:
        raise ValueError("the action is not a legal move of this observation")
    found = candidates(obs, budget.candidates)
    if made not in found:
        found.append(made)
    verdict = _verdict(obs, made)
    hero = obs.seat
    worlds = 0
    rng = random.Random(seed)
    sampler = WorldSampler(obs, rng)
    pool: list[list[int]] = []

    def world_hands(j: int) -> list[int]:
        while len(pool) <= j:
            pool.extend(sampler.sample_worlds(min(24, 8 + len(pool)), 3))
        return pool[j]

    if verdict is not None:
        wins = set(verdict["winning"])
        means = [
            verdict["win_points"] if move_text(m) in wins else verdict["lose_points"] for m in found
        ]
        # The solver lists every winning move: add one when the candidates missed it.
        if wins and not any(move_text(m) in wins for m in found):
            extra = next(m for m in obs.legal if move_text(m) in wins)
            found.append(extra)
            means.append(verdict["win_points"])
        errors = [0.0] * len(found)
        made_index = found.index(made)
        best = max(range(len(found)), key=lambda i: (means[i], i == made_index, -i))
        cost = means[best] - means[made_index]
        cost_se = 0.0
    else:
        made_index = found.index(made)
        current: list[Round | None] = [None]
        last = [-1]

        def value(j: int, c: int) -> float:
            if last[0] != j:
                current[0] = round_from_observation(obs, world_hands(j))
                last[0] = j
            world = current[0]
            assert world is not None
            r = world.apply(found[c])
            assert not isinstance(r, Refusal)
            # The same rollout generator for every candidate in world j.
            return playout(r, hero, random.Random(f"{seed}:{j}"))

        cmp = compare(len(found), made_index, value, budget.worlds, budget.settle)
        worlds = cmp.worlds
        means = [_mean(v) for v in cmp.values]
        errors = _errors(cmp.values)
        best, cost, cost_se = cmp.best, cmp.cost, cmp.cost_se
    is_mistake = cost >= MISTAKE_MIN_COST and (cost_se == 0.0 or cost > MISTAKE_Z * cost_se)
    best_move = found[best]
    return {
        "kind": "pass" if made.is_pass else "play",
        "made": move_text(made),
        "best": move_text(best_move),
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
        "facts": facts(obs, made, best_move, verdict, world_hands(0)) if best_move != made else [],
        # Every candidate's expected points (the bench compares searches with them).
        "means": {move_text(m): round(means[i], 3) for i, m in enumerate(found)},
    }


def hint(obs: Observation, seed: str, budget: Budget) -> dict[str, Any]:
    """The advanced player's suggestion for ``obs`` with the reasons the page tells: its
    expected points against the heuristic's move, the solver's verdict when exact, and
    the hand's groups the suggestion keeps whole."""
    if obs.phase == "exchange":
        from rules_engine.ai.heuristics import return_cards

        cards = return_cards(obs.hand, obs.owe, obs.rules)
        return {"kind": "give", "best": format_cards(cards)}
    if obs.owed_choice is not None and obs.owed_choice[0] == obs.seat:
        return choice_hint(obs, seed, budget)
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


def choice_hint(obs: Observation, seed: str, budget: Budget) -> dict[str, Any]:
    """A house-rule choice owed (RULES.md section 8): the advanced player's own choice (it
    searches choices like moves), as cards to give or discard or ranks to name."""
    import random

    from rules_engine.ai import Budget as SearchBudget
    from rules_engine.ai import make_player
    from rules_engine.state import CHOICE_KINDS, NAME_CHOICE, rank_text

    assert obs.owed_choice is not None
    kind = obs.owed_choice[1]
    player = make_player("advanced", budget=SearchBudget(playouts=max(50, budget.worlds * 8)))
    choice = player.choose_choice(obs, random.Random(seed))
    best = rank_text(choice) if kind == NAME_CHOICE else format_cards(choice)
    return {"kind": "choice", "choice": CHOICE_KINDS[kind], "best": best}


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: the log index of its action, the round, the
    seat's observation just before it, and the action taken."""

    index: int
    round_no: int
    obs: Observation
    action: Action
    #: For an exchange return: the returns other seats still owed then (public).
    pending: tuple[Pending, ...] = ()


def decisions(record: dict[str, Any], seat: int) -> list[Decision]:
    """Every play or pass of ``seat`` in a stored game that had a choice (forced moves,
    a lone legal move, are left out: nothing to learn from them), every exchange
    return it made, and every house-rule choice (give, discard, name) it made out of
    more than one legal choice."""
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
            r = m.round
            pending = tuple(
                Pending(s, r.partner[s], r.owed[s])
                for s in range(r.n)
                if s != seat and r.owed[s] and r.partner[s] >= 0
            )
            found.append(Decision(i, m.round_no, m.observe(seat), action, pending))
        elif action.seat == seat and action.kind in ("choose", "name"):
            # The legal choices depend only on the seat's own hand (and the rule owed).
            if len(m.round.legal_choices()) > 1:
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
    from rules_engine.ai.heuristics import return_cards
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


@dataclass(frozen=True)
class Pending:
    """An exchange return another seat still owes when the reviewed seat returns its own:
    public facts (the titles say who owes whom how many; the table shows who has given)."""

    seat: int
    to: int
    owe: int


def _units(cards: int) -> list[int]:
    """A card set as single cards (each joker its own unit)."""
    out = [1 << c for c in range(52) if cards >> c & 1]
    return out + [JOKER_UNIT] * (cards >> JOKER_SHIFT)


class ExchangeWorlds:
    """Worlds for an exchange return, consistent with all the seat knows then.

    Each world is drawn by the computer players' :class:`WorldSampler` (the other hands of
    their observed sizes; the seat that handed this one its strongest cards holds nothing
    stronger), then, for every return another seat still owes (``pending``): that seat got
    its partner's strongest cards, so the ``owe`` strongest cards of the two hands together
    are in the giver's hand; the two hands are re-split under that condition (exactly: the
    condition does not depend on which cards the two share), and the giver's return is
    made as the computer players make it (:func:`~rules_engine.ai.heuristics.return_cards`).
    The hands returned are those of the table once every other return is made, so the
    seat's own candidate return ends the exchange and the round is played out from the
    real card counts.
    """

    def __init__(self, obs: Observation, pending: tuple[Pending, ...], seed: str) -> None:
        self.obs = obs
        self.pending = pending
        self.rng = random.Random(seed)
        self.sampler = WorldSampler(obs, self.rng, weighting=False)
        self.pool: list[list[int]] = []

    def before_returns(self) -> list[int]:
        """One guess of every hand as the table stands (the others' returns not made)."""
        from rules_engine import strongest_cards

        hands = self.sampler.sample_hands()
        for p in self.pending:
            both = hands[p.seat] + hands[p.to]
            top = strongest_cards(both, p.owe)
            rest = _units(both - top)
            self.rng.shuffle(rest)
            k = count(hands[p.seat]) - p.owe
            giver = top + sum(rest[:k])
            hands[p.seat], hands[p.to] = giver, both - giver
        return hands

    def _draw(self) -> list[int]:
        from rules_engine.ai.heuristics import return_cards

        hands = self.before_returns()
        for p in self.pending:
            given = return_cards(hands[p.seat], p.owe, self.obs.rules)
            hands[p.seat] -= given
            hands[p.to] += given
        return hands

    def hands(self, j: int) -> list[int]:
        while len(self.pool) <= j:
            self.pool.append(self._draw())
        return self.pool[j]


def review_return(
    obs: Observation,
    made_action: Action,
    seed: str,
    budget: Budget,
    pending: tuple[Pending, ...] = (),
) -> dict[str, Any]:
    """Judge an exchange return: each candidate set is given in the same worlds
    (:class:`ExchangeWorlds`: the other seats' pending returns made in them) and the round
    played out, stopping early like a play (:func:`compare`)."""
    assert made_action.cards is not None
    made = parse_cards(made_action.cards, max(2, obs.rules.jokers))
    found = return_candidates(obs, made)
    hero = obs.seat
    worlds = ExchangeWorlds(obs, pending, seed)

    def value(j: int, c: int) -> float:
        r = round_from_observation(obs, worlds.hands(j)).give(hero, found[c])
        if isinstance(r, Refusal):
            raise ValueError(f"return refused: {r.reason}")
        return playout(r, hero, random.Random(f"{seed}:{j}"))

    made_index = found.index(made)
    best, item = _judged(found, made_index, value, budget, format_cards)
    broke = [] if best == made_index else _split_cards(obs, made, found[best])
    item["facts"] = [{"kind": "broke", "cards": u, "played": p} for u, p in broke]
    return {"kind": "give", **item}


def _judged(
    found: list[int],
    made_index: int,
    value: Callable[[int, int], float],
    budget: Budget,
    text: Callable[[int], str],
) -> tuple[int, dict[str, Any]]:
    """The best candidate's index, and the review item's figures for a set of cards (or
    ranks) chosen among ``found``: an exchange return and a house-rule choice are judged
    alike (:func:`compare`, the same mistake thresholds)."""
    cmp = compare(len(found), made_index, value, budget.worlds, budget.settle)
    means = [_mean(v) for v in cmp.values]
    errors = _errors(cmp.values)
    best, cost, cost_se = cmp.best, cmp.cost, cmp.cost_se
    is_mistake = cost >= MISTAKE_MIN_COST and cost > MISTAKE_Z * cost_se
    return best, {
        "made": text(found[made_index]),
        "best": text(found[best]),
        "made_mean": round(means[made_index], 3),
        "made_se": round(errors[made_index], 3),
        "best_mean": round(means[best], 3),
        "best_se": round(errors[best], 3),
        "cost": round(max(0.0, cost), 3),
        "cost_se": round(cost_se, 3),
        "mistake": bool(is_mistake),
        "worlds": cmp.worlds,
        "candidates": len(found),
        "verdict": None,
        "broke": [],
        "facts": [],
        "means": {text(c): round(means[i], 3) for i, c in enumerate(found)},
    }


def choice_value(obs: Observation, action: Action) -> int:
    """The card set (give, discard) or rank set (name) a choice action made."""
    from rules_engine.state import parse_ranks

    assert action.cards is not None
    if action.kind == "name":
        ranks = parse_ranks(action.cards)
        if isinstance(ranks, Refusal):
            raise ValueError(f"not ranks: {ranks.reason}")
        return ranks
    return parse_cards(action.cards, max(2, obs.rules.jokers))


def review_choice(
    obs: Observation, made_action: Action, seed: str, budget: Budget
) -> dict[str, Any]:
    """Judge a house-rule choice (RULES.md section 8) like an exchange return: the
    advanced player's candidates (:func:`~rules_engine.ai.choices.observation_choices`,
    the heuristic's first) and the choice made are each made in the same sampled worlds
    of the seat's observation and the round played out through the engine
    (:func:`compare`)."""
    from rules_engine.ai.choices import SEARCHED_CHOICES, apply_choice, observation_choices
    from rules_engine.state import CHOICE_KINDS, NAME_CHOICE, rank_text

    owed = obs.owed_choice
    if owed is None or owed[0] != obs.seat:
        raise ValueError("this seat owes no choice")
    kind = owed[1]
    made = choice_value(obs, made_action)
    found = observation_choices(obs, SEARCHED_CHOICES)
    if made not in found:
        found.append(made)
    hero = obs.seat
    sampler = WorldSampler(obs, random.Random(seed))
    pool: list[list[int]] = []

    def value(j: int, c: int) -> float:
        while len(pool) <= j:
            pool.extend(sampler.sample_worlds(min(24, 8 + len(pool)), 3))
        r = apply_choice(round_from_observation(obs, pool[j]), found[c])
        return playout(r, hero, random.Random(f"{seed}:{j}"))

    def text(choice: int) -> str:
        return rank_text(choice) if kind == NAME_CHOICE else format_cards(choice)

    made_index = found.index(made)
    best, item = _judged(found, made_index, value, budget, text)
    if best != made_index:
        item["facts"] = choice_facts(obs, kind, made, found[best])
    return {"kind": "choice", "choice": CHOICE_KINDS[kind], **item}


def choice_facts(obs: Observation, kind: int, made: int, best: int) -> list[dict[str, Any]]:
    """What tells a choice made from the preferred one (the page's sentences): the cards
    given or discarded that the preferred choice keeps; for a naming, the seat's own
    cards of the named ranks (discarded from its hand)."""
    from rules_engine.state import NAME_CHOICE

    if kind != NAME_CHOICE:
        kept = made & ~best
        return [{"kind": "kept", "cards": format_cards(kept)}] if kept else []

    def own(ranks: int) -> int:
        return obs.hand & sum(RANK_MASKS[r] for r in range(len(RANK_MASKS)) if ranks >> r & 1)

    lost = own(made) & ~own(best)
    return [{"kind": "lost", "cards": format_cards(lost)}] if lost else []


# -- what the move made did, against the preferred one (the page's sentences) ----------------

#: A strong card (the joker, or the strongest rank) spent with at least this many cards
#: still in hand is "spent early".
EARLY_LEFT = 5


def _split_cards(obs: Observation, made: int, best: int) -> list[tuple[str, str]]:
    """Units of the hand (as the computer players plan it) that the cards ``made`` break
    and the cards ``best`` do not: (the unit, the cards of it taken)."""
    out = []
    for unit in plan(obs.hand, obs.rules, obs.revolution):
        if count(unit.cards) < 2:
            continue
        taken = unit.cards & made
        if not taken or taken == unit.cards:
            continue
        other = unit.cards & best
        if other and other != unit.cards:
            continue
        out.append((format_cards(unit.cards), format_cards(taken)))
    return out


def unbeatable(obs: Observation, move: Move) -> bool:
    """Whether no other player can beat ``move``, whatever they hold: the engine is asked
    on tables where one of them holds every card this seat cannot see (the public card
    count; face-down cards included, so "no one" is certain)."""
    if move.is_pass:
        return False
    unseen = obs.unseen()
    size = count(move.cards)
    for s in range(obs.players):
        if s == obs.seat or obs.counts[s] < size:
            continue
        hands = [0] * obs.players
        hands[obs.seat] = obs.hand
        hands[s] = unseen
        r = round_from_observation(obs, hands).apply(move)
        if isinstance(r, Refusal):
            return False
        if r.phase != PLAY_PHASE or r.top is None or r.to_act != s:
            continue
        if any(not m.is_pass and count(m.cards) <= obs.counts[s] for m in r.legal_moves()):
            return False
    return True


def _stuck_with(world: Round, after: Round, left: int) -> int:
    """``left`` (the cards kept) when none of them may be the last play under the rules
    (in the order ``after`` leaves in force): each alone is an illegal finish, and they
    make no exempt play together. 0 otherwise, or when nothing is left."""
    if not left or after.phase != PLAY_PHASE:
        return 0
    rules = world.rules
    together = analyse(left, None, after.reversed, rules.sequence_min)
    if together is not None and not forbidden_finish(together, rules, after.revolution, None):
        return 0
    singles = [1 << index for index in iter_indices(left)]
    if left >> JOKER_SHIFT:
        singles.append(JOKER_UNIT)
    for cards in singles:
        single = analyse(cards, None, after.reversed, rules.sequence_min)
        if single is None or not forbidden_finish(single, rules, after.revolution, None):
            return 0
    return left


def facts(
    obs: Observation,
    made: Move,
    best: Move,
    verdict: dict[str, Any] | None,
    hands: list[int],
) -> list[dict[str, Any]]:
    """What tells the move made from the preferred one, as codes for the page's sentences:
    the solver's verdict, the engine's effects of both moves (in one world of the
    observation: a move's own effects depend only on what the seat sees) and the public
    card count. Kinds: ``lost_win``, ``stuck``, ``broke``, ``unbeatable``, ``eight_cut``,
    ``revolution``, ``early``, ``penalised``."""
    out: list[dict[str, Any]] = []
    world = round_from_observation(obs, hands)
    after_made, after_best = world.apply(made), world.apply(best)
    assert not isinstance(after_made, Refusal) and not isinstance(after_best, Refusal)
    made_fx = {e.kind: e for e in after_made.effects}
    best_fx = {e.kind: e for e in after_best.effects}
    if verdict is not None and verdict["winnable"] and not verdict["made_wins"]:
        out.append(
            {
                "kind": "lost_win",
                "made": move_text(made),
                "best": move_text(best),
                "place": verdict["place"],
            }
        )
    # Left only cards no one may go out with: the cost the search found is the illegal
    # finish waiting at the end, whatever else is true of the preferred move.
    stuck = _stuck_with(world, after_made, obs.hand & ~made.cards)
    if stuck and not _stuck_with(world, after_best, obs.hand & ~best.cards):
        out.append({"kind": "stuck", "cards": format_cards(stuck)})
    for unit, taken in _split_cards(obs, made.cards, best.cards):
        out.append({"kind": "broke", "cards": unit, "played": taken})
    keeps_cards = count(obs.hand) > count(best.cards)
    if EIGHT_CUT in best_fx and EIGHT_CUT not in made_fx and keeps_cards:
        out.append({"kind": "eight_cut", "cards": move_text(best)})
    elif keeps_cards and not stuck and unbeatable(obs, best) and not unbeatable(obs, made):
        out.append({"kind": "unbeatable", "cards": move_text(best)})
    for who, fx, other in (("made", made_fx, best_fx), ("best", best_fx, made_fx)):
        if REVOLUTION in fx and REVOLUTION not in other:
            out.append({"kind": "revolution", "by": who, "on": bool(fx[REVOLUTION].on)})
    top = RANK_MASKS[RANK_3 if world.reversed else RANK_2] | (3 << JOKER_SHIFT)
    spent = made.cards & top
    left = count(obs.hand) - count(made.cards)
    if spent and not best.cards & top and left >= EARLY_LEFT:
        out.append({"kind": "early", "cards": format_cards(spent), "left": left})
    if PENALISED in made_fx:
        out.append({"kind": "penalised", "cards": move_text(made)})
    return out
