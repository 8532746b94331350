"""A learned move policy: a softmax over features of each option, fitted to game records.

The options are those the intermediate planner weighs (:func:`~.heuristics.plan`): on
an empty field the hand's planned combinations, on a played field a pass and every legal
play. Each option is described by a few numbers (how strong it is, whether it breaks a
combination, spends a joker or a 2, cuts, starts a revolution, locks the suits, is safe
from every unseen card, finishes the hand; some of them crossed with the moment: an
opponent about to go out, a short hand), and scored by a weight per number. The play is
the best score (``temperature`` 0) or a draw with probability ``exp(score / T)``.

The weights come from records of strong play (:mod:`uecda.train_policy` fits
them by maximum likelihood) and ship as ``policy_weights.json`` beside this module. The
rule effects are the engine's own predicates (``cuts``, ``toggles_revolution``,
``forbidden_finish``); nothing here restates a rule.

Under the rules the weights were fitted to (UECda's, :data:`FITTED_PRESETS`), the advanced
player's rollouts draw every seat's moves from this policy, and so do those of the
intermediate level's short search.

>>> from rules_engine import RuleSet, Round
>>> r = Round.start(RuleSet.preset("uecda"), ["D3 S3", "C5", "H6", "S7", "C9"])
>>> str(policy_move(r, random.Random(0), 0.0))    # one combination: lead it whole
'S3 D3'
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Final

from ..cards import JOKER_RANK, JOKER_SHIFT, RANK_2, RANK_3, SPADE_3
from ..effects import cuts, forbidden_finish, toggles_revolution
from ..moves import PASS_FORM, SEQUENCE, SINGLE, Move
from ..observation import Observation
from ..rules import RuleSet
from ..state import Round
from .heuristics import (
    Context,
    observation_choice,
    plan,
    round_context,
    round_legal,
    unit_strength,
)

LEAD_FEATURES: Final = (
    "strength",
    "strength_sq",
    "single",
    "pair",
    "triple_or_more",
    "sequence",
    "size",
    "safe",
    "cut",
    "revolution",
    "joker",
    "top_rank",
    "spade3",
    "short_hand_strength",
    "short_hand_safe",
    "press_strength",
    "press_longer",
    "long_hand_strength",
    "rest_safe",
    "forbidden_finish",
)

FOLLOW_FEATURES: Final = (
    "play",
    "strength",
    "strength_sq",
    "gap",
    "breaks",
    "joker_filler",
    "joker",
    "top_rank",
    "cut",
    "revolution",
    "finish",
    "spade3",
    "lock",
    "safe",
    "press",
    "press_strength",
    "owner_short",
    "short_hand",
    "short_hand_strength",
    "long_hand",
    "long_hand_strength",
    "reserve_short",
    "rest_safe",
)

N_LEAD: Final = len(LEAD_FEATURES)
N_FOLLOW: Final = len(FOLLOW_FEATURES)

#: The presets whose games the shipped weights were fitted to (rules that started from
#: one of them): there the policy models real play, and the computer players use it
#: (the advanced player's rollouts and reading, the intermediate level's moves).
FITTED_PRESETS: Final = frozenset({"uecda"})


def fitted(rules: RuleSet) -> bool:
    """Whether ``rules`` started from a preset the shipped weights were fitted to: the one
    test every rule-gated use of the policy asks.

    >>> fitted(RuleSet.preset("uecda")), fitted(RuleSet.preset("standard"))
    (True, False)
    """
    return rules.preset_name in FITTED_PRESETS


#: Found through the package (a compiled module's ``__file__`` is not beside it).
WEIGHTS_FILE = Path(str(resources.files("rules_engine.ai").joinpath("policy_weights.json")))


class Weights:
    """One weight per lead feature and per follow feature."""

    __slots__ = ("lead", "follow")

    def __init__(self, lead: Sequence[float], follow: Sequence[float]) -> None:
        if len(lead) != N_LEAD or len(follow) != N_FOLLOW:
            raise ValueError("weights do not match the features")
        self.lead = [float(w) for w in lead]
        self.follow = [float(w) for w in follow]

    @classmethod
    def load(cls, path: Path | None = None) -> Weights:
        data = json.loads((path or WEIGHTS_FILE).read_text(encoding="utf-8"))
        lead = data["lead"]
        follow = data["follow"]
        return cls(
            [lead[name] for name in LEAD_FEATURES], [follow[name] for name in FOLLOW_FEATURES]
        )

    def to_json(self, **extra: object) -> str:
        data: dict[str, object] = dict(extra)
        data["lead"] = dict(zip(LEAD_FEATURES, (round(w, 4) for w in self.lead), strict=True))
        data["follow"] = dict(zip(FOLLOW_FEATURES, (round(w, 4) for w in self.follow), strict=True))
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


_DEFAULT: list[Weights] = []


def default_weights() -> Weights:
    """The shipped weights (read once)."""
    if not _DEFAULT:
        _DEFAULT.append(Weights.load())
    return _DEFAULT[0]


# -- features ----------------------------------------------------------------------------


def lead_features(ctx: Context, units: list[Move], safe: list[bool], i: int) -> list[float]:
    """The features of leading ``units[i]``; ``safe[j]`` whether unit ``j`` is safe."""
    u = units[i]
    rules = ctx.rules
    rev = ctx.rev
    s = unit_strength(u, rev) / 13.0
    n_units = len(units)
    short = 1.0 if n_units <= 3 else 0.0
    long_hand = min(n_units, 10) / 10.0
    press = 1.0 if ctx.opp_min <= 2 else 0.0
    size = u.size
    form = u.form
    is_seq = form == SEQUENCE
    rest_safe = 1.0
    for j in range(n_units):
        if j != i and not safe[j]:
            rest_safe = 0.0
            break
    rank = u.rank
    return [
        s,
        s * s,
        1.0 if size == 1 and not is_seq else 0.0,
        1.0 if size == 2 and not is_seq else 0.0,
        1.0 if size >= 3 and not is_seq else 0.0,
        1.0 if is_seq else 0.0,
        size / 4.0,
        1.0 if safe[i] else 0.0,
        1.0 if cuts(u, rules) else 0.0,
        1.0 if toggles_revolution(u, rules) else 0.0,
        1.0 if not is_seq and rank == JOKER_RANK else 0.0,
        1.0 if not is_seq and rank == (RANK_3 if rev else RANK_2) else 0.0,
        1.0 if u.cards == SPADE_3 and rules.spade3_return and ctx.other_jokers > 0 else 0.0,
        short * s,
        short * (1.0 if safe[i] else 0.0),
        press * s,
        press * (1.0 if size > ctx.opp_min else 0.0),
        long_hand * s,
        rest_safe if n_units > 1 else 0.0,
        1.0 if forbidden_finish(u, rules, ctx.revolution, None) else 0.0,
    ]


def follow_features(
    ctx: Context, units: list[Move], unit_cards: set[int], unsafe: set[int], m: Move
) -> list[float]:
    """The features of playing ``m`` on the field (a pass has none: every score is
    relative to passing)."""
    top = ctx.top
    assert top is not None
    rules = ctx.rules
    rev = ctx.rev
    hand = ctx.hand
    n_units = len(units)
    short = 1.0 if n_units <= 3 else 0.0
    long_hand = min(n_units, 10) / 10.0
    press = 1.0 if ctx.opp_min <= 2 else 0.0
    is_seq = m.form == SEQUENCE
    s = unit_strength(m, rev) / 13.0
    gap = s - unit_strength(top, rev) / 13.0
    rank = m.rank
    reserve = (
        1.0 if not is_seq and (rank == JOKER_RANK or rank == (RANK_3 if rev else RANK_2)) else 0.0
    )
    cards = m.cards
    in_plan = cards in unit_cards
    filler = m.jokers > 0 and cards >> JOKER_SHIFT != m.size
    lock = 1.0 if rules.suit_lock and not ctx.lock and m.suits == top.suits else 0.0
    # Whether every combination left after this play is safe (the lead comes back).
    rest_safe = 1.0 if len(unsafe) - (1 if cards in unsafe else 0) == 0 and in_plan else 0.0
    return [
        1.0,
        s,
        s * s,
        gap,
        0.0 if in_plan else 1.0,
        1.0 if filler else 0.0,
        1.0 if not is_seq and rank == JOKER_RANK else 0.0,
        1.0 if not is_seq and rank == (RANK_3 if rev else RANK_2) else 0.0,
        1.0 if cuts(m, rules) else 0.0,
        1.0 if toggles_revolution(m, rules) else 0.0,
        1.0 if cards == hand else 0.0,
        1.0
        if cards == SPADE_3
        and top.rank == JOKER_RANK
        and top.form == SINGLE
        and rules.spade3_return
        else 0.0,
        lock,
        1.0 if ctx.safe(m) else 0.0,
        press,
        press * s,
        1.0 if ctx.owner_count <= 2 else 0.0,
        short,
        short * s,
        long_hand,
        long_hand * s,
        reserve * max(short, press),
        rest_safe,
    ]


# -- choosing ----------------------------------------------------------------------------


def _pick(scores: list[float], rng: random.Random | None, temperature: float) -> int:
    best = 0
    for i in range(1, len(scores)):
        if scores[i] > scores[best]:
            best = i
    if temperature <= 0.0 or rng is None:
        return best
    weights = _odds(scores, scores[best], temperature)
    total = 0.0
    for w in weights:
        total += w
    x = rng.random() * total
    for i, w in enumerate(weights):
        x -= w
        if x < 0.0:
            return i
    return best


def _odds(scores: list[float], top: float, temperature: float) -> list[float]:
    """Each option's unnormalised chance in a draw at ``temperature`` (``top``: the best
    score, so the largest is 1)."""
    return [math.exp((x - top) / temperature) for x in scores]


def _scores(ctx: Context, features: list[list[float]], weights: Weights) -> list[float]:
    w = weights.lead if ctx.top is None else weights.follow
    return [_dot(w, f) for f in features]


def _dot(w: list[float], f: list[float]) -> float:
    total = 0.0
    for i in range(len(f)):
        total += w[i] * f[i]
    return total


def choose(
    ctx: Context,
    legal: Sequence[Move] | None,
    weights: Weights,
    rng: random.Random | None = None,
    temperature: float = 0.0,
) -> Move:
    """The policy's move: ``legal`` may be ``None`` when leading."""
    options, features = decision_features(ctx, legal)
    if len(options) == 1:
        return options[0]
    return options[_pick(_scores(ctx, features, weights), rng, temperature)]


def decision_features(
    ctx: Context, legal: Sequence[Move] | None
) -> tuple[list[Move], list[list[float]]]:
    """The options of a decision and their features (the trainer's view and the
    player's are this one function). ``legal`` may be ``None`` when leading."""
    units = plan(ctx.hand, ctx.rules, ctx.revolution)
    if ctx.top is None:
        if len(units) == 1:
            return units, [[]]
        safe = [ctx.safe(u) for u in units]
        return units, [lead_features(ctx, units, safe, i) for i in range(len(units))]
    assert legal is not None
    moves: list[Move] = []
    features: list[list[float]] = []
    unit_cards = {u.cards for u in units}
    unsafe = {u.cards for u in units if not ctx.safe(u)}
    for m in legal:
        if m.form == PASS_FORM:
            moves.append(m)
            features.append([0.0] * N_FOLLOW)
        elif not (m.cards == ctx.hand and forbidden_finish(m, ctx.rules, ctx.revolution, ctx.top)):
            moves.append(m)
            features.append(follow_features(ctx, units, unit_cards, unsafe, m))
    return moves, features


def policy_move(
    r: Round,
    rng: random.Random | None = None,
    temperature: float = 0.0,
    weights: Weights | None = None,
) -> Move:
    """The policy's move for the player to act in a full round (a sampled world)."""
    legal = round_legal(r)
    if legal is not None and len(legal) == 1:
        return legal[0]
    return choose(round_context(r), legal, weights or default_weights(), rng, temperature)


def move_probability(
    r: Round, move: Move, weights: Weights | None = None, temperature: float = 1.0
) -> float | None:
    """The chance that the policy, drawing at ``temperature``, plays ``move`` for the
    player to act in a full round (a sampled world): ``None`` when it has no choice
    there, 0.0 when ``move`` is not among its options (a lead that breaks a planned
    combination, say). The computer players read the others' plays with it.

    >>> from rules_engine import RuleSet, Round
    >>> r = Round.start(RuleSet.preset("uecda"), ["D3 S3 HK", "C5", "H6", "S7", "C9"])
    >>> lead = {str(m): m for m in r.legal_moves()}
    >>> p = move_probability(r, lead["S3 D3"])
    >>> p is not None and 0.0 < p < 1.0, move_probability(r, lead["S3"])
    (True, 0.0)
    """
    legal = round_legal(r)
    if legal is not None and len(legal) == 1:
        return None
    ctx = round_context(r)
    options, features = decision_features(ctx, legal)
    if len(options) < 2:
        return None
    if move not in options:
        return 0.0
    scores = _scores(ctx, features, weights or default_weights())
    odds = _odds(scores, max(scores), temperature)
    total = 0.0
    for x in odds:
        total += x
    return odds[options.index(move)] / total


def observation_move(
    obs: Observation,
    rng: random.Random | None = None,
    temperature: float = 0.0,
    weights: Weights | None = None,
) -> Move:
    """The policy's move for a seat from its observation (what a real player knows)."""
    w = weights or default_weights()
    return observation_choice(obs, lambda ctx, legal: choose(ctx, legal, w, rng, temperature))
