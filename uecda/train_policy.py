"""Fit the policy's weights (:mod:`rules_engine.ai.policy`) to UECda game records.

``python -m uecda.train_policy RECORD [RECORD ...] [--out FILE] [--skip-player NAME]``
replays every game through the engine (:func:`uecda.records.replay`), turns
each decision that had a choice into the policy's options and features (``--skip-player``
leaves out a player's: this project's own client in a tournament's record), and fits the
weights by maximum likelihood (a softmax over the options, L2-regularised, Adam on the full
batch). A tenth of the games is held out: the figures printed are the held-out
log-likelihood and how often the policy's best option, and the intermediate heuristic's,
is the move played.

Pure Python (the engine has no numeric dependency): a few tens of thousands of decisions
fit in a minute or two.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from rules_engine.ai.heuristics import heuristic_move, round_context, round_legal
from rules_engine.ai.policy import (
    FOLLOW_FEATURES,
    LEAD_FEATURES,
    WEIGHTS_FILE,
    Weights,
    decision_features,
)

from .records import GameRecord, RecordError, read_records, replay

#: One decision: its options' features, the index played, and whether the heuristic
#: would have played it.
Example = tuple[list[list[float]], int, bool]


def examples(
    games: Sequence[GameRecord], skip: frozenset[str] = frozenset()
) -> tuple[list[Example], list[Example], dict[str, int]]:
    """Lead and follow examples of every replayable decision with a choice, except those
    of players named in ``skip`` (a tournament's record holds this project's own moves,
    which the policy must not learn from: it models the others)."""
    leads: list[Example] = []
    follows: list[Example] = []
    tally = {"decisions": 0, "uncovered": 0, "unreplayable_games": 0}
    for game in games:
        # A game the engine cannot replay to its end gives no examples at all.
        game_leads: list[Example] = []
        game_follows: list[Example] = []
        decisions = uncovered = 0
        try:
            for r, move in replay(game):
                if game.names and game.names[r.to_act] in skip:
                    continue
                legal = round_legal(r)
                ctx = round_context(r)
                options, features = decision_features(ctx, legal)
                if len(options) < 2:
                    continue
                decisions += 1
                if move not in options:
                    uncovered += 1
                    continue
                h = heuristic_move(ctx, legal)
                ex = (features, options.index(move), h == move)
                (game_leads if r.top is None else game_follows).append(ex)
        except RecordError:
            tally["unreplayable_games"] += 1
            continue
        leads.extend(game_leads)
        follows.extend(game_follows)
        tally["decisions"] += decisions
        tally["uncovered"] += uncovered
    return leads, follows, tally


def _probabilities(w: list[float], features: list[list[float]]) -> list[float]:
    scores = [sum(wi * fi for wi, fi in zip(w, f, strict=True)) for f in features]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def loglik(w: list[float], data: Sequence[Example]) -> float:
    """Mean log-probability of the moves played."""
    if not data:
        return 0.0
    return sum(math.log(max(1e-12, _probabilities(w, f)[k])) for f, k, _ in data) / len(data)


def accuracy(w: list[float], data: Sequence[Example]) -> float:
    """How often the best-scored option is the move played."""
    if not data:
        return 0.0
    hits = 0
    for f, k, _ in data:
        scores = [sum(wi * fi for wi, fi in zip(w, x, strict=True)) for x in f]
        hits += max(range(len(scores)), key=lambda i: (scores[i], -i)) == k
    return hits / len(data)


def fit(
    data: Sequence[Example], dim: int, iterations: int = 300, l2: float = 1e-3, lr: float = 0.05
) -> list[float]:
    """Maximum-likelihood weights (Adam on the full batch)."""
    w = [0.0] * dim
    m = [0.0] * dim
    v = [0.0] * dim
    n = max(1, len(data))
    for t in range(1, iterations + 1):
        grad = [l2 * wi for wi in w]
        for f, k, _ in data:
            p = _probabilities(w, f)
            for i, pi in enumerate(p):
                coef = (pi - (1.0 if i == k else 0.0)) / n
                if coef:
                    fi = f[i]
                    for d in range(dim):
                        grad[d] += coef * fi[d]
        for d in range(dim):
            m[d] = 0.9 * m[d] + 0.1 * grad[d]
            v[d] = 0.999 * v[d] + 0.001 * grad[d] * grad[d]
            mh = m[d] / (1 - 0.9**t)
            vh = v[d] / (1 - 0.999**t)
            w[d] -= lr * mh / (math.sqrt(vh) + 1e-8)
    return w


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uecda.train_policy")
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--skip-player",
        action="append",
        default=[],
        metavar="NAME",
        help="leave out this player's decisions (e.g. this project's client in a tournament)",
    )
    args = parser.parse_args(argv)
    skip = frozenset(args.skip_player)
    games: list[GameRecord] = []
    for path in args.records:
        games.extend(read_records(path.read_text(encoding="utf-8", errors="replace")))
    random.Random(args.seed).shuffle(games)
    cut = len(games) // 10
    held, train = games[:cut], games[cut:]
    lead_tr, follow_tr, tally = examples(train, skip)
    lead_ho, follow_ho, _ = examples(held, skip)
    print(f"games {len(games)} (held out {len(held)}); {tally}", file=sys.stderr)
    result = {}
    for name, tr, ho, dim in (
        ("lead", lead_tr, lead_ho, len(LEAD_FEATURES)),
        ("follow", follow_tr, follow_ho, len(FOLLOW_FEATURES)),
    ):
        w = fit(tr, dim, args.iterations, args.l2)
        heur = sum(1 for _, _, h in ho if h) / max(1, len(ho))
        print(
            f"{name}: {len(tr)} train, {len(ho)} held out; held-out log-likelihood "
            f"{loglik(w, ho):.3f}, policy top-1 {accuracy(w, ho):.3f}, heuristic {heur:.3f}",
            file=sys.stderr,
        )
        result[name] = w
    weights = Weights(result["lead"], result["follow"])
    args.out.write_text(
        weights.to_json(games=len(games), source=[p.name for p in args.records]),
        encoding="utf-8",
    )
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
