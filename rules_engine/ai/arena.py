"""The tournament program: duplicate matches between computer players.

``python -m rules_engine arena --players advanced,intermediate,intermediate,intermediate
--games N --seed S [--preset P] [--budget-ms B] [--rounds R] [--json]``

Each *game* is one match (``rounds`` rounds, titles and the exchange carried
from round to round) played ``n`` times on the same deals, the players
rotated one seat further each time, so every entry of the player list plays
every seat of every deal and the luck of the deal cancels. Every action goes
through :meth:`~rules_engine.match.Match.apply` exactly as a web client's
would; a refused action, an exception or a round that does not end is an
error.

Per player kind (entries with the same name are pooled): mean points per
round (n-1 for first ... 0 for last), its 95% confidence interval (normal
approximation over games: each game, i.e. one deal set with all its
rotations, is one independent sample), rate of first and of last place,
and the time of each ``choose_move`` call (median, p95, p99, max).

A player spec is a level name, optionally with a budget for the advanced
player: ``advanced:150`` (150 ms per move) or ``advanced:p400`` (400
playouts per move).

>>> result = run_arena(["intermediate", "beginner", "beginner"], games=1, seed=1, rounds=1)
>>> sum(p.points_total for p in result.kinds) == 3 * 3   # 3 rotations x (2+1+0)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..cards import count, format_cards
from ..match import Match
from ..rules import RuleSet
from ..state import EXCHANGE, NAME_CHOICE, OVER, Refusal, rank_text
from . import make_player
from .base import Budget, Player

#: A round with more actions than this is counted as a hang.
MAX_ACTIONS_PER_ROUND = 3000


class ArenaError(RuntimeError):
    """A player made an illegal move, crashed, or a round did not end."""


def parse_spec(spec: str, budget_ms: float | None = None) -> tuple[str, Player]:
    """A player from a spec: ``level`` or ``advanced:MS`` / ``advanced:pN``.

    ``budget_ms`` is the advanced player's time per move when the spec
    gives none.

    >>> parse_spec("advanced:p300")[0]
    'advanced:p300'
    """
    spec = spec.strip()
    level, _, extra = spec.partition(":")
    kw: dict[str, Any] = {"name": spec}
    if extra:
        if level != "advanced":
            raise ValueError(f"only the advanced player takes a budget: {spec!r}")
        if extra.startswith("p"):
            kw["budget"] = Budget(playouts=int(extra[1:]))
        else:
            kw["budget"] = Budget(time_ms=float(extra))
    elif level == "advanced" and budget_ms is not None:
        kw["budget"] = Budget(time_ms=budget_ms)
    return spec, make_player(level, **kw)


@dataclass
class KindStats:
    """Everything measured for one player kind."""

    name: str
    seat_rounds: int = 0
    points_total: int = 0
    firsts: int = 0
    lasts: int = 0
    per_game: list[float] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)

    @property
    def mean_points(self) -> float:
        return self.points_total / self.seat_rounds if self.seat_rounds else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of the mean, over games."""
        g = len(self.per_game)
        mean = sum(self.per_game) / g if g else 0.0
        if g < 2:
            return (mean, mean)
        var = sum((x - mean) ** 2 for x in self.per_game) / (g - 1)
        half = 1.96 * math.sqrt(var / g)
        return (mean - half, mean + half)

    def percentile(self, q: float) -> float:
        if not self.move_ms:
            return 0.0
        data = sorted(self.move_ms)
        i = min(len(data) - 1, max(0, math.ceil(q * len(data)) - 1))
        return data[i]

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci95
        n = self.seat_rounds or 1
        return {
            "name": self.name,
            "mean_points": round(self.mean_points, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "first_rate": round(self.firsts / n, 4),
            "last_rate": round(self.lasts / n, 4),
            "move_ms_p50": round(self.percentile(0.5), 3),
            "move_ms_p95": round(self.percentile(0.95), 3),
            "move_ms_p99": round(self.percentile(0.99), 3),
            "move_ms_max": round(max(self.move_ms, default=0.0), 3),
            "moves": len(self.move_ms),
            "seat_rounds": self.seat_rounds,
        }


@dataclass
class ArenaResult:
    games: int
    players: list[str]
    rules: RuleSet
    rounds: int
    seed: int | str
    kinds: list[KindStats]
    #: Per game, per rotation: the kind at each seat (for checking the rotation).
    seatings: list[list[list[str]]] = field(default_factory=list)
    #: Per game, per rotation, per round: seats from first place to last.
    results: list[list[list[tuple[int, ...]]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": [k.to_json() for k in self.kinds],
            "table": self.players,
            "rules": self.rules.to_json(),
            "rounds": self.rounds,
            "seed": self.seed,
            "errors": self.errors,
            "elapsed_s": round(self.elapsed_s, 1),
        }

    def table(self) -> str:
        """The per-kind figures as aligned text."""
        head = (
            f"{'player':<16} {'mean pts':>8} {'95% CI':>17} {'first':>6} {'last':>6} "
            f"{'ms p50':>8} {'ms p95':>8} {'ms p99':>8} {'ms max':>8} {'moves':>7}"
        )
        lines = [head]
        for k in self.kinds:
            d = k.to_json()
            lo, hi = d["ci95"]
            lines.append(
                f"{k.name:<16} {d['mean_points']:>8.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} "
                f"{d['first_rate']:>6.3f} {d['last_rate']:>6.3f} {d['move_ms_p50']:>8.2f} "
                f"{d['move_ms_p95']:>8.2f} {d['move_ms_p99']:>8.2f} {d['move_ms_max']:>8.2f} "
                f"{d['moves']:>7}"
            )
        n = len(self.players)
        lines.append(
            f"{self.games} games x {n} seatings x {self.rounds} round(s), "
            f"rules {self.rules.to_json()}, seed {self.seed}, {self.elapsed_s:.1f}s, "
            f"{len(self.errors)} error(s)"
        )
        return "\n".join(lines)


def play_match(
    rules: RuleSet,
    seated: Sequence[Player],
    rounds: int,
    seed: int | str,
    rng_seed: str,
    on_move: Callable[[int, float], None] | None = None,
) -> list[tuple[int, ...]]:
    """Play one match with ``seated[s]`` at seat ``s``; the results of its
    rounds (seats from first to last). Raises :class:`ArenaError`."""
    n = len(seated)
    rngs = [random.Random(f"{rng_seed}:{s}") for s in range(n)]
    m = Match.new(rules, n, rounds, seed)
    actions = 0
    while True:
        r = m.round
        if r.phase == OVER:
            if m.over:
                return [tuple(res) for res in m.results]
            m = _apply(m, Action.next_round())
            actions = 0
            continue
        actions += 1
        if actions > MAX_ACTIONS_PER_ROUND:
            raise ArenaError(f"round {m.round_no} of match {seed} did not end")
        if r.phase == EXCHANGE:
            seat = next(s for s in range(n) if r.owed[s])
            obs = m.observe(seat)
            cards = seated[seat].choose_return(obs, rngs[seat])
            if count(cards) != obs.owe:
                raise ArenaError(f"{seated[seat].name} returned {count(cards)} of {obs.owe}")
            m = _apply(m, Action.give(seat, format_cards(cards)))
            continue
        owed = r.owed_choice()
        if owed is not None:
            # A house-rule choice (RULES.md section 8).
            seat = owed[0]
            obs = m.observe(seat)
            choice = seated[seat].choose_choice(obs, rngs[seat])
            if owed[1] == NAME_CHOICE:
                choice_action = Action.name(seat, rank_text(choice))
            else:
                choice_action = Action.choose(seat, format_cards(choice))
            m = _apply(m, choice_action)
            continue
        seat = r.to_act
        obs = m.observe(seat)
        t0 = time.perf_counter()
        move = seated[seat].choose_move(obs, rngs[seat])
        elapsed = (time.perf_counter() - t0) * 1000.0
        if on_move is not None:
            on_move(seat, elapsed)
        if move not in obs.legal:
            raise ArenaError(f"{seated[seat].name} chose {move}, not legal in {obs.to_json()}")
        if move.form == 0:
            action = Action.pass_(seat)
        else:
            action = Action.play(seat, format_cards(move.cards), form=move.form_name)
        m = _apply(m, action)


def _timer(sink: list[tuple[str, float]], names: list[str]) -> Callable[[int, float], None]:
    def on_move(seat: int, ms: float) -> None:
        sink.append((names[seat], ms))

    return on_move


def _apply(m: Match, action: Action) -> Match:
    out = m.apply(action)
    if isinstance(out, Refusal):
        raise ArenaError(f"action {action.to_json()} refused: {out.reason}")
    return out


def run_arena(
    players: Sequence[str],
    games: int,
    seed: int | str,
    preset: str = "standard",
    rounds: int | None = None,
    budget_ms: float | None = None,
    rules: RuleSet | None = None,
    strict: bool = True,
    progress: Callable[[int, ArenaResult], None] | None = None,
) -> ArenaResult:
    """Play ``games`` duplicate games; see the module documentation.

    ``rounds`` defaults to 3 at tables of 3 or more and 1 at two players.
    With ``strict`` an error stops the tournament (raised); otherwise it is
    recorded and the game skipped.
    """
    n = len(players)
    if not 2 <= n <= 6:
        raise ValueError("a table has 2 to 6 players")
    if rules is None:
        rules = RuleSet.preset(preset)
    if rounds is None:
        rounds = 3 if n >= 3 else 1
    entries = [parse_spec(p, budget_ms) for p in players]
    names = [name for name, _ in entries]
    kinds: dict[str, KindStats] = {}
    for name in names:
        kinds.setdefault(name, KindStats(name))
    result = ArenaResult(games, names, rules, rounds, seed, list(kinds.values()))
    started = time.perf_counter()
    for g in range(games):
        match_seed = f"{seed}:{g}"
        game_points: dict[str, list[int]] = {name: [] for name in kinds}
        game_seatings: list[list[str]] = []
        game_results: list[list[tuple[int, ...]]] = []
        pending: list[tuple[str, int, int, int]] = []  # name, points, first, last
        pending_ms: list[tuple[str, float]] = []
        try:
            for rot in range(n):
                # Entry i sits at seat (i + rot) % n.
                seat_entry = [(s - rot) % n for s in range(n)]
                seated = [entries[seat_entry[s]][1] for s in range(n)]
                seat_names = [names[seat_entry[s]] for s in range(n)]

                res = play_match(
                    rules,
                    seated,
                    rounds,
                    match_seed,
                    f"{match_seed}:{rot}",
                    _timer(pending_ms, seat_names),
                )
                game_seatings.append(seat_names)
                game_results.append(res)
                for order in res:
                    for place, s in enumerate(order):
                        pending.append((seat_names[s], n - 1 - place, place == 0, place == n - 1))
        except Exception as exc:  # every failure is reported
            message = f"game {g} (seed {match_seed}): {type(exc).__name__}: {exc}"
            if strict:
                raise ArenaError(message) from exc
            result.errors.append(message)
            continue
        for name, pts, first, last in pending:
            k = kinds[name]
            k.seat_rounds += 1
            k.points_total += pts
            k.firsts += first
            k.lasts += last
            game_points[name].append(pts)
        for name, ms in pending_ms:
            kinds[name].move_ms.append(ms)
        for name, pts_list in game_points.items():
            kinds[name].per_game.append(sum(pts_list) / len(pts_list))
        result.seatings.append(game_seatings)
        result.results.append(game_results)
        if progress is not None:
            result.elapsed_s = time.perf_counter() - started
            progress(g, result)
    result.games = len(result.results)
    result.elapsed_s = time.perf_counter() - started
    return result
