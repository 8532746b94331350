"""The intermediate player: the heuristic hand planner (:mod:`~rules_engine.ai.heuristics`)
under the site's presets; under the rules the learned policy was fitted to (UECda's) a
short search instead: the advanced player's, at a fixed number of playouts.

>>> import random
>>> from rules_engine import Round, RuleSet, observe
>>> r = Round.deal(RuleSet.preset("standard"), players=4, seed=7)
>>> player = IntermediatePlayer()
>>> player.uses_policy(observe(r, r.to_act)), player.playouts
(False, 100)
>>> move = player.choose_move(observe(r, r.to_act), random.Random(1))
>>> move in r.legal_moves()
True
"""

from __future__ import annotations

import random
from typing import Final

from ..moves import Move
from ..observation import Observation
from .advanced import AdvancedPlayer
from .base import Budget
from .choices import observation_choices
from .heuristics import heuristic_move, observation_choice, return_cards
from .policy import fitted, observation_move

#: Under the fitted rules, the playouts of the level's short search (the advanced
#: player's, at a fixed count and no clock, so a move is a pure function of the
#: observation and the seed): enough to catch what the policy's one glance misses,
#: a sixtieth of the advanced level's budget.
SEARCH_PLAYOUTS: Final = 100


class IntermediatePlayer:
    """The heuristic player; under the rules the learned policy was fitted to (UECda's,
    :data:`~rules_engine.ai.policy.FITTED_PRESETS`), a short search instead: the
    advanced player's, at :data:`SEARCH_PLAYOUTS` playouts whatever budget it is given,
    its rollouts drawn from the policy (``playouts=0``: the policy's best move alone).

    ``policy`` ``None`` chooses by the rules; ``True`` or ``False`` forces one or the
    other. In the site's presets the weights model nobody (played there they do clearly
    worse against beginners than the heuristic), so the site's intermediate level stays
    the heuristic, deterministic: the random generator is not used.
    """

    def __init__(
        self, name: str = "intermediate", policy: bool | None = None, playouts: int | None = None
    ) -> None:
        self.name = name
        self.policy = policy
        self.playouts = SEARCH_PLAYOUTS if playouts is None else playouts
        if self.playouts < 0:
            raise ValueError("playouts must be at least 0")
        #: The short search, built once (``None`` with ``playouts=0``).
        self.search: AdvancedPlayer | None = None
        if self.playouts:
            # The policy is forced on for every seat of the rollouts, as the fitted rules
            # would have it, so that policy=True means the same player under any rules;
            # its own budget is the only one it uses. Its rollouts draw every move (no sure
            # ways out first): the level was measured so, and the advanced level's sure
            # ways out were measured on that level alone.
            self.search = AdvancedPlayer(
                name,
                Budget(playouts=self.playouts),
                opponent_policy=True,
                own_policy=True,
                read_policy=True,
                outlook=False,
                sure=False,
            )

    def uses_policy(self, obs: Observation) -> bool:
        """Whether this seat plays by the learned policy rather than the heuristic."""
        if self.policy is not None:
            return self.policy
        return fitted(obs.rules)

    def choose_move(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> Move:
        if not self.uses_policy(obs):
            return observation_choice(obs, heuristic_move)
        if self.search is not None:
            return self.search.choose_move(obs, rng)
        return observation_move(obs)

    def choose_choice(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> int:
        """A house-rule choice (RULES.md section 8): the cards least worth keeping under
        the order in force, or the ranks worth most to name
        (:mod:`~rules_engine.ai.choices`)."""
        return observation_choices(obs)[0]

    def choose_return(self, obs: Observation, rng: random.Random) -> int:
        if self.search is not None and self.uses_policy(obs):
            return self.search.choose_return(obs, rng)
        return return_cards(obs.hand, obs.owe, obs.rules)
