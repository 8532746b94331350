"""The computer players under the house rules (RULES.md section 8): every level makes every
choice legally from its observation, sensibly, and the advanced level's search of a choice
depends on what its seat sees only."""

from __future__ import annotations

import random

import pytest

from rules_engine import Round, RuleSet, observe
from rules_engine.ai import AdvancedPlayer, Budget, Player, make_player
from rules_engine.ai.arena import play_match
from rules_engine.ai.choices import observation_choices
from rules_engine.cards import format_cards
from rules_engine.observation import Observation
from rules_engine.state import CHOICE_KINDS, NAME_CHOICE, rank_text

EVERY_HOUSE_RULE = RuleSet.preset(
    "house", twelve_bomber="groups", sandstorm=True, seven_pass="any", five_skip="any"
)
LEVELS = ("beginner", "intermediate", "advanced")


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_house_matches(level: str) -> None:
    """Matches with every house rule on end without a refused action (play_match raises on
    any), and the rules did fire: choices were owed and made."""
    seated = [
        Counting(
            make_player(level, budget=Budget(playouts=20))
            if level == "advanced"
            else make_player(level)
        )
        for _ in range(4)
    ]
    results = play_match(EVERY_HOUSE_RULE, seated, 3, "house-ai", "rng")
    assert len(results) == 3
    kinds = {kind for p in seated for kind in p.kinds}
    assert kinds >= {"give", "discard"}
    assert sum(len(p.kinds) for p in seated) >= 4


class Counting:
    """A player that records the kinds of choice it was asked for."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.kinds: list[str] = []

    def choose_move(self, obs: Observation, rng: random.Random, budget: Budget | None = None):
        return self.inner.choose_move(obs, rng, budget)

    def choose_return(self, obs: Observation, rng: random.Random) -> int:
        return self.inner.choose_return(obs, rng)

    def choose_choice(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> int:
        assert obs.owed_choice is not None and obs.owed_choice[0] == obs.seat
        self.kinds.append(CHOICE_KINDS[obs.owed_choice[1]])
        return self.inner.choose_choice(obs, rng, budget)


def owing(rules: RuleSet, hands: list[str], play: str) -> Round:
    r = Round.start(rules, hands, leader=0).apply(play)
    assert isinstance(r, Round) and r.owed_choice() is not None
    return r


@pytest.mark.parametrize("level", ("beginner", "intermediate"))
def test_a_gift_is_the_weakest_unneeded_card(level: str) -> None:
    rules = RuleSet.preset("basic", seven_pass="groups")
    r = owing(rules, ["S7 S4 D9 H9 SK S2 JK", "HK", "D6", "C9"], "S7")
    choice = make_player(level).choose_choice(observe(r, 0), random.Random(0))
    assert format_cards(choice) == "S4"


def test_a_gift_in_a_revolution_is_a_high_card() -> None:
    rules = RuleSet.preset("basic", ten_discard="groups")
    r = Round.start(rules, ["ST S4 SK S2", "HK", "D6", "C9"], leader=0, revolution=True)
    r = r.apply("ST")
    assert isinstance(r, Round)
    assert format_cards(observation_choices(observe(r, 0))[0]) == "S2"


@pytest.mark.parametrize("level", ("beginner", "intermediate"))
def test_a_bomber_sheds_the_namers_weak_cards(level: str) -> None:
    """Holding three weak 4s and no other weak pair, the namer names the 4."""
    rules = RuleSet.preset("basic", twelve_bomber="groups")
    r = owing(rules, ["SQ S4 H4 D4 SA S2", "HK", "D6", "C9"], "SQ")
    choice = make_player(level).choose_choice(observe(r, 0), random.Random(0))
    assert rank_text(choice) == "4"


def test_the_advanced_choice_is_legal_and_honest() -> None:
    """The same observation with other hidden hands: the same search and the same choice."""
    rules = RuleSet.preset("basic", seven_pass="groups")
    hands_a = ["S7 H7 S4 D9 H9 SK CQ", "HK D5 C6", "D6 C8 H3", "C9 CT S8"]
    hands_b = ["S7 H7 S4 D9 H9 SK CQ", "HK C8 H3", "D6 D5 C6", "C9 CT S8"]
    rounds = [owing(rules, h, "S7 H7") for h in (hands_a, hands_b)]
    assert observe(rounds[0], 0) == observe(rounds[1], 0)
    players = [AdvancedPlayer(), AdvancedPlayer()]
    choices = [
        p.choose_choice(observe(r, 0), random.Random(5), Budget(playouts=120))
        for p, r in zip(players, rounds, strict=True)
    ]
    assert choices[0] == choices[1]
    assert players[0].last.means == players[1].last.means
    assert choices[0] in rounds[0].legal_choices()
    assert len(players[0].last.visits) > 1  # several candidates were searched


def test_candidates_are_legal_and_distinct() -> None:
    rules = RuleSet.preset("basic", twelve_bomber="any", ten_discard="any")
    r = owing(rules, ["SQ HQ DQ ST S4 H4 D9 C2", "HK", "D6", "C9"], "SQ HQ DQ")
    obs = observe(r, 0)
    owed = obs.owed_choice
    assert owed is not None and owed[1] == NAME_CHOICE and owed[2] == 3
    found = observation_choices(obs, 6)
    assert len(set(found)) == len(found) == 6
    assert set(found) <= set(r.legal_choices())
