"""The advanced player: determinized Monte Carlo over sampled worlds.

For each decision it

1. lists a handful of candidate moves (every distinct kind of legal move,
   the intermediate heuristic's choice first, hopeless joker-fillers left
   out while the hand is big);
2. draws guesses of the hidden hands from the cards it cannot see, weighted
   by how well they explain the others' plays and passes
   (:class:`~rules_engine.ai.worlds.WorldSampler`; under the rules the learned
   policy was fitted to, by how likely the policy finds their latest plays);
3. when only two players still hold cards and few cards remain, asks the
   engine's exact solver, in each sampled world, which moves force the
   better place, and plays the one that does so in the most worlds;
4. otherwise runs a UCB bandit over the candidates: each playout applies a
   candidate in one sampled world (the *j*-th playout of every candidate
   uses the same *j*-th world, so candidates are compared on equal deals)
   and plays to the end of the round, every seat with the fast intermediate policy
   (:func:`~rules_engine.ai.heuristics.rollout_move`) or, under rules the learned
   policy was fitted to (UECda's), with a move drawn from that policy
   (:func:`~rules_engine.ai.policy.policy_move`), scoring the worth of
   the seat's place: its points, plus, when more rounds follow, what the class
   it brings is worth in them (:func:`~rules_engine.ai.outlook.place_values`;
   under UECda's rules its points alone, :data:`OUTLOOK_WITH_POLICY`);
5. stops at the budget (time or playouts), or earlier once the best mean is
   clearly ahead, and plays the candidate with the best expected worth.

In the exchange it searches the same way: each candidate return (pairs of the
hand's least useful cards) is given in sampled worlds and the round played out.

Everything random comes from the generator it is given: with a
playouts-only budget the choice is a function of the observation and the
seed. It reads nothing but the observation.

>>> from rules_engine import RuleSet, Round, observe
>>> r = Round.start(RuleSet.preset("basic"), ["S3 H9", "C4", "HK"], leader=0)
>>> str(AdvancedPlayer().choose_move(observe(r, 0), random.Random(0), Budget(playouts=200)))
'H9'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from itertools import combinations

from ..cards import JOKER_SHIFT, RANK_2, RANK_MASKS, count
from ..moves import Move
from ..observation import Observation, round_from_observation
from ..solver import SolverLimit, hero_place, solve
from ..state import PLAY, Refusal, Round
from .base import Budget
from .choices import SEARCHED_CHOICES, apply_choice, observation_choices, round_choice
from .heuristics import (
    context_from_observation,
    heuristic_move,
    legal_version,
    plan,
    return_order,
    round_context,
    round_legal,
    sure_choice,
    unit_strength,
)
from .outlook import place_values
from .policy import FITTED_PRESETS, Weights, choose, default_weights, fitted
from .worlds import WorldSampler

#: Thinking time per move when no budget is given (the play page may choose another).
#: Playouts buy strength (against FujiGokoro 2.04 at 300 ms, 2.35 at 1000 ms over 150 and
#: 100 games); 450 ms keeps p95 under half a second on one core.
DEFAULT_BUDGET = Budget(time_ms=450, playouts=6000)
#: Candidate moves searched at most.
MAX_CANDIDATES = 10
#: The exchange: returns are searched among this many of the hand's least useful cards.
RETURN_POOL = 7
#: Playouts each candidate gets before the bandit chooses.
MIN_VISITS = 6
#: Exploration constant of UCB1 on points scaled to 0..1.
UCB_C = 0.5
#: Worlds drawn per batch, and raw samples per kept world.
WORLD_BATCH = 24
OVERSAMPLE = 3
#: Distinct worlds per decision, at most. The heuristic's rollouts are deterministic, so
#: a world met again by the same candidate tells nothing new: each playout of a candidate
#: gets a world of its own (at 240, the favourite's 1,200 playouts had replayed 240 worlds).
MAX_WORLDS = 6000
#: Chance that a rollout player passes where the heuristic would play. Measured:
#: exact heuristic rollouts (0) play at least as well as noisy ones (0.1).
PLAYOUT_NOISE = 0.0
#: Rollouts play the learned policy (:mod:`~rules_engine.ai.policy`) instead of the
#: intermediate heuristic, drawing each move at this temperature (0: its best move).
ROLLOUT_POLICY = False
PLAYOUT_TEMPERATURE = 0.0
#: Rollouts model the *other* seats by the learned policy, each move drawn with the
#: probability the policy gives it (temperature 1: the fit's own odds), under rules that
#: started from these presets: the shipped weights were fitted to UECda records, and in
#: the site's presets they model nobody (played as the intermediate level there, they
#: do clearly worse against beginners than the heuristic). A playout with them costs
#: more, so a time budget buys fewer playouts; against 4 x FujiGokoro it was worth it
#: all the same.
POLICY_PRESETS = FITTED_PRESETS
OPPONENT_TEMPERATURE = 1.0
#: Under the same rules the seat's own rollout moves are drawn from the policy as well,
#: at this temperature: a playout then follows what a strong player might do next, not
#: one fixed heuristic line. On the policy's best move (temperature 0) it measured no
#: stronger than the heuristic; drawn (1) it did (docs/computer-players.md, "How the
#: policy is used under UECda's rules").
OWN_POLICY = True
OWN_TEMPERATURE = 1.0
#: Under the same rules, the sampled worlds are weighted by how likely the policy finds
#: the others' latest plays with the hands each world gives them
#: (:data:`~rules_engine.ai.worlds.POLICY_EVENTS`), not by the simple play model. That
#: reading costs about 0.6 ms a world (0.2 ms a guess, three guesses a world), so a
#: decision draws at most :data:`READ_WORLDS` of them and its playouts take them in turn
#: (the others' moves are drawn, so a world met again plays out differently). Against
#: 4 x FujiGokoro: 2.80 over 450 games, 2.60 with the simple reading (docs/computer-players.md).
READ_POLICY = True
READ_WORLDS = 96
#: Under the same rules a playout is scored by this game's points alone, not by the
#: outlook of the class each place brings (:func:`~rules_engine.ai.outlook.place_values`):
#: that table was measured by the intermediate heuristic's self-play, and against strong
#: UECda players it made the search gamble for a high place with a weak hand (it played
#: where FujiGokoro passed, and stronger cards where it played weaker ones); see
#: docs/computer-players.md.
OUTLOOK_WITH_POLICY = False
#: Under the same rules every seat in a rollout takes a sure way out when it has one
#: (:func:`~rules_engine.ai.heuristics.sure_move`: the rest of its hand beyond the
#: others' reach), before the policy draws: drawn at temperature 1, the policy missed
#: about one in three of them on a played field (391 of 1,216 in 300 self-play games),
#: where FujiGokoro's own playouts check for such a line first.
SURE_MOVES = True
#: The solver takes over when two players hold at most this many cards together.
ENDGAME_CARDS = 12
SOLVER_WORLDS = 16
SOLVER_NODES = 5000
SOLVER_NODES_PER_S = 10_000
#: Positions for all sampled worlds together (bounds a playouts-only budget).
SOLVER_TOTAL_NODES = 20_000
#: Weight sampled worlds by the others' plays; finish small endgames with the solver.
WEIGHTING = True
SOLVER = True
#: Early stop: the best mean must lead every other by this many standard errors.
STOP_Z = 2.5


#: The clock of time budgets: CPU time of the searching thread, not wall time, so
#: a busy machine (other searches, other processes) makes a search slower, never
#: shorter in playouts. Under no load the two agree within a few per cent.
_clock = time.thread_time


class Rollout:
    """How a playout plays every seat to the end of the round, and what it scores.

    By default every seat plays the intermediate heuristic
    (:func:`~rules_engine.ai.heuristics.rollout_move`, passing where it would play with
    chance ``noise``). ``every`` puts every seat on the learned policy instead, each move
    drawn at ``temperature`` (0: its best). ``others`` draws the other seats' moves from
    those weights at :data:`OPPONENT_TEMPERATURE`, and ``own`` the seat's own at
    ``own_temperature``; they take precedence over ``every`` for the seats they cover.
    With ``sure`` a seat that has a sure way out
    (:func:`~rules_engine.ai.heuristics.sure_move`) takes it before any of them.
    The score is ``values`` by place (first .. last), or without them the place's points
    (n-1 for first ... 0 for last).
    """

    __slots__ = (
        "values",
        "noise",
        "every",
        "temperature",
        "others",
        "own",
        "own_temperature",
        "sure",
    )

    def __init__(
        self,
        values: tuple[float, ...] | None = None,
        noise: float = 0.0,
        every: Weights | None = None,
        temperature: float = 0.0,
        others: Weights | None = None,
        own: Weights | None = None,
        own_temperature: float = OWN_TEMPERATURE,
        sure: bool = False,
    ) -> None:
        self.values = values
        self.noise = noise
        self.every = every
        self.temperature = temperature
        self.others = others
        self.own = own
        self.own_temperature = own_temperature
        self.sure = sure


#: Every seat the heuristic, scored by points: the game review's playouts.
HEURISTIC_ROLLOUT = Rollout()


def playout(r: Round, hero: int, rng: random.Random, how: Rollout = HEURISTIC_ROLLOUT) -> float:
    """The worth to ``hero`` of ``r`` played out as ``how`` says (see :class:`Rollout`),
    to the end of the round or until ``hero`` is out."""
    own = how.own
    others = how.others
    every = how.every
    sure = how.sure
    noise = how.noise
    while r.phase == PLAY and r.hands[hero]:
        if r.pending is not None:
            # A house-rule choice (RULES.md section 8): every seat makes the heuristic's.
            r = apply_choice(r, round_choice(r))
            continue
        if r.to_act == hero and own is not None:
            weights: Weights | None = own
            temperature = how.own_temperature
        elif r.to_act != hero and others is not None:
            weights = others
            temperature = OPPONENT_TEMPERATURE
        else:
            weights = every
            temperature = how.temperature
        # One legal set and one context per step, for the sure way out and for the
        # policy's or the heuristic's move (as policy_move and rollout_move would).
        legal = round_legal(r)
        if legal is not None and len(legal) == 1:
            move = legal[0]
        else:
            ctx = round_context(r)
            found = sure_choice(r, ctx, legal) if sure else None
            if found is not None:
                move = found
            elif weights is not None:
                move = choose(ctx, legal, weights, rng, temperature)
            else:
                move = heuristic_move(ctx, legal, rng, noise)
        nxt = r.apply(move)
        if isinstance(nxt, Refusal):  # pragma: no cover - would be a policy bug
            raise RuntimeError(f"rollout policy made an illegal move: {nxt.reason}")
        r = nxt
    place = hero_place(r, hero)
    assert place is not None
    values = how.values
    if values is None:
        return float(r.n - 1 - place)
    return values[place]


class _Worlds:
    """The sampled worlds of one decision, drawn as the search first asks for them."""

    def __init__(self, obs: Observation, sampler: WorldSampler, limit: int = MAX_WORLDS) -> None:
        self.obs = obs
        self.sampler = sampler
        self.rounds: list[Round] = []
        self.limit = limit

    def get(self, j: int) -> Round:
        """World ``j`` (the same round every time it is asked for)."""
        j %= self.limit
        rounds = self.rounds
        while len(rounds) <= j:
            # Small batches first: a short budget must not wait for many worlds.
            batch = min(WORLD_BATCH, 8 + len(rounds))
            for hands in self.sampler.sample_worlds(batch, OVERSAMPLE):
                rounds.append(round_from_observation(self.obs, hands))
        return rounds[j]


class SearchStats:
    """What the last search did (for tests, tuning and the arena)."""

    __slots__ = ("playouts", "candidates", "worlds", "mode", "means", "visits")

    def __init__(self) -> None:
        self.playouts = 0
        self.candidates: list[Move] = []
        self.worlds = 0
        self.mode = "forced"
        self.means: list[float] = []
        self.visits: list[int] = []


class AdvancedPlayer:
    """Determinized Monte Carlo with a UCB bandit at the root.

    ``budget`` is the default budget per move; ``choose_move``'s own
    ``budget`` argument overrides it.
    """

    def __init__(
        self,
        name: str = "advanced",
        budget: Budget | None = None,
        weighting: bool | None = None,
        solver: bool | None = None,
        noise: float | None = None,
        rollout_policy: bool | None = None,
        temperature: float | None = None,
        opponent_policy: bool | None = None,
        own_policy: bool | None = None,
        own_temperature: float | None = None,
        read_policy: bool | None = None,
        outlook: bool | None = None,
        sure: bool | None = None,
    ) -> None:
        self.name = name
        self.budget = budget if budget is not None else DEFAULT_BUDGET
        self.weighting = WEIGHTING if weighting is None else weighting
        self.solver = SOLVER if solver is None else solver
        self.noise = PLAYOUT_NOISE if noise is None else noise
        use_policy = ROLLOUT_POLICY if rollout_policy is None else rollout_policy
        self.policy: Weights | None = default_weights() if use_policy else None
        self.temperature = PLAYOUT_TEMPERATURE if temperature is None else temperature
        #: ``None``: by the rules (:data:`POLICY_PRESETS`).
        self.opponent_policy = opponent_policy
        #: ``None``: by the rules (:data:`POLICY_PRESETS`, :data:`OWN_POLICY`).
        self.own_policy = own_policy
        self.own_temperature = OWN_TEMPERATURE if own_temperature is None else own_temperature
        #: ``None``: by the rules (:data:`POLICY_PRESETS`, :data:`READ_POLICY`).
        self.read_policy = read_policy
        #: ``None``: by the rules (:data:`POLICY_PRESETS`, :data:`OUTLOOK_WITH_POLICY`).
        self.outlook = outlook
        #: ``None``: by the rules (:data:`POLICY_PRESETS`, :data:`SURE_MOVES`).
        self.sure = sure
        self.last = SearchStats()

    def opponent_model(self, obs: Observation) -> Weights | None:
        """The weights the other seats play by in rollouts (``None``: the heuristic)."""
        use = self.opponent_policy
        if use is None:
            use = self.policy is None and fitted(obs.rules)
        return default_weights() if use else None

    def reading_model(self, obs: Observation) -> Weights | None:
        """The weights the others' past plays are read by when worlds are weighted
        (``None``: the simple play model of :mod:`~rules_engine.ai.worlds`)."""
        use = self.read_policy
        if use is None:
            use = READ_POLICY and fitted(obs.rules)
        return default_weights() if use and self.weighting else None

    def sure_moves(self, obs: Observation) -> bool:
        """Whether rollout seats take a sure way out before their policy draws."""
        use = self.sure
        if use is None:
            use = SURE_MOVES and fitted(obs.rules)
        return use

    def place_values(self, obs: Observation) -> tuple[float, ...]:
        """What each place (first .. last) is worth to the playouts: with the outlook of
        the rounds still to come (:func:`~rules_engine.ai.outlook.place_values`), or this
        game's points alone."""
        use = self.outlook
        if use is None:
            use = OUTLOOK_WITH_POLICY or not fitted(obs.rules)
        return place_values(obs.rules, obs.players, obs.rounds_left if use else 0)

    def _worlds(self, obs: Observation, rng: random.Random) -> _Worlds:
        model = self.reading_model(obs)
        sampler = WorldSampler(obs, rng, weighting=self.weighting, model=model)
        return _Worlds(obs, sampler, MAX_WORLDS if model is None else READ_WORLDS)

    def own_model(self, obs: Observation) -> Weights | None:
        """The weights the seat itself plays by in rollouts, its moves drawn at
        ``own_temperature`` (``None``: the heuristic, or ``rollout_policy``'s every-seat
        policy)."""
        use = self.own_policy
        if use is None:
            use = OWN_POLICY and self.policy is None and fitted(obs.rules)
        return default_weights() if use else None

    # -- the exchange --------------------------------------------------------------

    def choose_return(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> int:
        """The cards to hand back, searched like a move: each candidate set (pairs of
        the hand's least useful cards, :data:`RETURN_POOL` of them, the heuristic's
        choice first) is given in sampled worlds and the round played out."""
        stats = SearchStats()
        self.last = stats
        owe = obs.owe
        if owe <= 0:
            raise ValueError("this seat owes no cards")
        order = return_order(obs.hand, obs.rules)
        if len(order) <= owe:
            return sum(order[:owe])
        # Jokers and 2s go only when nothing else is left to give.
        pool = [c for c in order[:RETURN_POOL] if not self._precious(c)] or order[:owe]
        heuristic = sum(order[:owe])
        candidates = [heuristic]
        if len(pool) >= owe:
            for combo in combinations(pool, owe):
                cards = sum(combo)
                if cards != heuristic:
                    candidates.append(cards)
        stats.candidates = []
        if len(candidates) == 1:
            return heuristic
        budget = budget if budget is not None else self.budget
        started = _clock()
        deadline = started + budget.time_ms / 1000 if budget.time_ms is not None else math.inf
        max_playouts = budget.playouts if budget.playouts is not None else 1 << 60
        worlds = self._worlds(obs, rng)
        seat = obs.seat

        def step(i: int, j: int) -> Round:
            out = worlds.get(j).give(seat, candidates[i])
            if isinstance(out, Refusal):  # pragma: no cover - candidates are the seat's cards
                raise RuntimeError(f"return refused: {out.reason}")
            return out

        best = self._bandit(obs, len(candidates), step, rng, deadline, max_playouts, stats)
        stats.worlds = len(worlds.rounds)
        return candidates[best]

    # -- house-rule choices -----------------------------------------------------------

    def choose_choice(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> int:
        """A house-rule choice (RULES.md section 8) searched like a move: the heuristic's
        best few candidates (:data:`~rules_engine.ai.choices.SEARCHED_CHOICES`) are each
        made in sampled worlds and the round played out through the engine."""
        stats = SearchStats()
        self.last = stats
        candidates = observation_choices(obs, SEARCHED_CHOICES)
        if len(candidates) == 1:
            return candidates[0]
        budget = budget if budget is not None else self.budget
        started = _clock()
        deadline = started + budget.time_ms / 1000 if budget.time_ms is not None else math.inf
        max_playouts = budget.playouts if budget.playouts is not None else 1 << 60
        worlds = self._worlds(obs, rng)

        def step(i: int, j: int) -> Round:
            return apply_choice(worlds.get(j), candidates[i])

        best = self._bandit(obs, len(candidates), step, rng, deadline, max_playouts, stats)
        stats.worlds = len(worlds.rounds)
        return candidates[best]

    @staticmethod
    def _precious(card: int) -> bool:
        return bool(card >> JOKER_SHIFT) or bool(card & RANK_MASKS[RANK_2])

    # -- play ----------------------------------------------------------------------

    def choose_move(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> Move:
        # The garbage collector stays on (it used to be switched off for the
        # whole process while a search ran); a process that mostly searches
        # calls gc.freeze() after warming up instead (see daifugo_site/play).
        return self._choose_move(obs, rng, budget)

    def _choose_move(self, obs: Observation, rng: random.Random, budget: Budget | None) -> Move:
        stats = SearchStats()
        self.last = stats
        legal = obs.legal
        if not legal:
            raise ValueError("not this seat's turn to play")
        if len(legal) == 1:
            return legal[0]
        budget = budget if budget is not None else self.budget
        started = _clock()
        deadline = started + budget.time_ms / 1000 if budget.time_ms is not None else math.inf
        max_playouts = budget.playouts if budget.playouts is not None else 1 << 60

        ctx = context_from_observation(obs)
        prior = legal_version(heuristic_move(ctx, legal if ctx.top is not None else None), legal)
        candidates = self._candidates(obs, prior)
        stats.candidates = candidates
        if len(candidates) == 1:
            return candidates[0]

        worlds = self._worlds(obs, rng)
        if self.solver:
            solved = self._endgame(obs, worlds.get, started, deadline, stats)
            if solved is not None:
                stats.worlds = len(worlds.rounds)
                return solved

        def step(i: int, j: int) -> Round:
            r = worlds.get(j).apply(candidates[i])
            if isinstance(r, Refusal):  # pragma: no cover - candidates are legal
                raise RuntimeError(f"candidate refused: {r.reason}")
            return r

        best = self._bandit(obs, len(candidates), step, rng, deadline, max_playouts, stats)
        stats.worlds = len(worlds.rounds)
        return candidates[best]

    def _candidates(self, obs: Observation, prior: Move) -> list[Move]:
        """Distinct kinds of legal move worth searching, the heuristic's first."""
        rules = obs.rules
        top = obs.field
        rev = obs.revolution ^ obs.jback
        units = {u.cards for u in plan(obs.hand, rules, obs.revolution)}
        big_hand = count(obs.hand) > 6
        lock_matters = rules.suit_lock and top is not None and not obs.lock

        def key(m: Move) -> tuple[int, ...]:
            k: tuple[int, ...] = (m.form, m.size, m.low, m.high, m.jokers)
            if lock_matters and top is not None:
                k += (int(m.suits == top.suits),)
            return k

        seen = {key(prior)}
        kept: list[Move] = []
        for m in obs.legal:
            if m == prior:
                continue
            if m.form != 0 and m.jokers and not m.only_jokers and big_hand:
                if m.cards not in units:
                    continue
            k = key(m)
            if k in seen:
                continue
            seen.add(k)
            kept.append(m)

        def rank(m: Move) -> tuple[int, int]:
            if m.form == 0:
                return (0, 0)
            return (0 if m.cards in units else 1, unit_strength(m, rev))

        kept.sort(key=rank)
        return [prior] + kept[: MAX_CANDIDATES - 1]

    def _endgame(
        self,
        obs: Observation,
        world: Callable[[int], Round],
        started: float,
        deadline: float,
        stats: SearchStats,
    ) -> Move | None:
        """Exact play when two players are left with few cards: the move
        that forces the better place in the most sampled worlds."""
        if obs.rules.has_house_rules:
            # Left to the bandit: the exact endgame's node budget was set without house
            # rules, whose choices multiply the positions (the solver searches them).
            return None
        active = [s for s in range(obs.players) if obs.counts[s] > 0]
        if len(active) != 2 or sum(obs.counts[s] for s in active) > ENDGAME_CARDS:
            return None
        place = sum(1 for s in obs.out if s not in obs.penalised)
        # The solver may use at most half the time.
        solver_deadline = started + (deadline - started) / 2
        wins = {m: 0 for m in obs.legal}
        done = 0
        nodes_left = SOLVER_TOTAL_NODES
        for j in range(SOLVER_WORLDS):
            now = _clock()
            if now > solver_deadline or nodes_left <= 0:
                break
            # Positions searched scale with the time left (a node costs up to ~100 us).
            nodes = min(SOLVER_NODES, nodes_left)
            if solver_deadline != math.inf:
                nodes = max(200, min(nodes, int((solver_deadline - now) * SOLVER_NODES_PER_S)))
            try:
                sol = solve(world(j), obs.seat, place, nodes, all_moves=True)
            except SolverLimit:
                return None
            nodes_left -= max(1, sol.nodes)
            for m in sol.winning_moves:
                wins[m] += 1
            done += 1
        if done < 4:
            return None
        best = max(wins.values())
        if best == 0:
            return None
        stats.mode = "solver"
        stats.playouts = done
        tops = [m for m in obs.legal if wins[m] == best]
        # Among equal moves, the one that sheds most cards.
        return max(tops, key=lambda m: m.size)

    def _bandit(
        self,
        obs: Observation,
        k: int,
        step: Callable[[int, int], Round],
        rng: random.Random,
        deadline: float,
        max_playouts: int,
        stats: SearchStats,
    ) -> int:
        """UCB1 over ``k`` candidates; ``step(i, j)`` is candidate ``i`` applied in
        sampled world ``j``. Returns the index of the best-valued candidate."""
        hero = obs.seat
        how = Rollout(
            values=self.place_values(obs),
            noise=self.noise,
            every=self.policy,
            temperature=self.temperature,
            others=self.opponent_model(obs),
            own=self.own_model(obs),
            own_temperature=self.own_temperature,
            sure=self.sure_moves(obs),
        )
        visits = [0] * k
        total = [0.0] * k
        squares = [0.0] * k
        n = 0
        clock = _clock
        while n < max_playouts:
            if clock() > deadline:
                break
            if n < k * MIN_VISITS:
                c = n % k
            else:
                log_n = math.log(n)
                best_u = -1.0
                c = 0
                for i in range(k):
                    u = total[i] / visits[i] + UCB_C * math.sqrt(log_n / visits[i])
                    if u > best_u:
                        best_u = u
                        c = i
            value = playout(step(c, visits[c]), hero, rng, how)
            visits[c] += 1
            total[c] += value
            squares[c] += value * value
            n += 1
            if n >= k * MIN_VISITS and n % k == 0 and self._clear_winner(visits, total, squares):
                break
        stats.mode = "bandit"
        stats.playouts = n
        means = [total[i] / visits[i] if visits[i] else 0.0 for i in range(k)]
        scale = obs.players - 1
        stats.means = [m * scale for m in means]
        stats.visits = visits
        # The best mean among the well-explored candidates (a lucky few
        # playouts do not decide).
        enough = max(visits) / 3
        return max(
            (i for i in range(k) if visits[i] >= enough), key=lambda i: (means[i], visits[i], -i)
        )

    @staticmethod
    def _clear_winner(visits: list[int], total: list[float], squares: list[float]) -> bool:
        k = len(visits)
        stats = []
        for i in range(k):
            v = visits[i]
            mean = total[i] / v
            var = max(0.0, squares[i] / v - mean * mean)
            stats.append((mean, var / v))
        b = max(range(k), key=lambda i: stats[i][0])
        mb, eb = stats[b]
        if visits[b] < 2 * MIN_VISITS:
            return False
        for i in range(k):
            if i == b:
                continue
            mi, ei = stats[i]
            se = math.sqrt(eb + ei)
            if se == 0.0:
                if mi > mb:  # pragma: no cover - b is the best mean
                    return False
                continue
            if mb - mi < STOP_Z * se:
                return False
        return True
