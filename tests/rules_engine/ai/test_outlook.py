"""The worth of a place when more rounds follow (rules_engine.ai.outlook), and the
rounds still to come as the match tells them to the players."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules_engine import Match, RuleSet
from rules_engine.ai import Budget
from rules_engine.ai.advanced import AdvancedPlayer
from rules_engine.ai.outlook import MIN_GAP, TRANSITIONS, measure, place_values
from rules_engine.observation import Observation
from rules_engine.rules import PRESET_PLAYERS


def test_every_preset_and_table_size_with_an_exchange_has_a_table() -> None:
    for preset, sizes in PRESET_PLAYERS.items():
        for players in sizes:
            if players >= 3:
                assert (preset, players) in TRANSITIONS, (preset, players)


@pytest.mark.parametrize("key", sorted(TRANSITIONS))
def test_tables_are_transition_matrices(key: tuple[str, int]) -> None:
    table = TRANSITIONS[key]
    players = key[1]
    assert len(table) == players
    for row in table:
        assert len(row) == players
        assert all(0.0 <= x <= 1.0 for x in row)
        assert sum(row) == pytest.approx(1.0, abs=1e-3)
    # The exchange helps: the former first place finishes first more often than the
    # former last place does.
    assert table[0][0] > table[-1][0]


@pytest.mark.parametrize("key", sorted(TRANSITIONS))
@pytest.mark.parametrize("rounds_left", [1, 2, 6, 100])
def test_places_keep_their_order(key: tuple[str, int], rounds_left: int) -> None:
    preset, players = key
    values = place_values(RuleSet.preset(preset), players, rounds_left)
    assert values[0] == 1.0 and values[-1] == 0.0
    assert all(a > b for a, b in zip(values, values[1:], strict=False))


def test_the_last_round_counts_its_points_only() -> None:
    rules = RuleSet.preset("classic")
    for rounds_left in (0, None):
        assert place_values(rules, 5, rounds_left) == (1.0, 0.75, 0.5, 0.25, 0.0)
    # Two seats have no exchange: nothing carries over.
    assert place_values(RuleSet.preset("standard"), 2, 3) == (1.0, 0.0)


def test_the_next_rounds_move_the_worth_of_places() -> None:
    # UECda: the top two classes take the bottom two's best cards, so second place is
    # worth more than its share, and the middle less.
    now = place_values(RuleSet.preset("uecda"), 5, 0)
    later = place_values(RuleSet.preset("uecda"), 5, 50)
    assert later != now
    assert later[2] < now[2]


def test_no_place_falls_below_the_next_by_less_than_the_gap() -> None:
    # classic at six seats has miyako-ochi: its table alone rates second above first.
    rules = RuleSet.preset("classic")
    table = TRANSITIONS[("classic", 6)]
    assert table[0][-1] > 0.5  # the former first place mostly drops out last
    values = place_values(rules, 6, 3)
    points_per_unit = 5 / (values[0] - values[-1])
    gaps = [(a - b) * points_per_unit for a, b in zip(values, values[1:], strict=False)]
    assert min(gaps) >= MIN_GAP - 0.01


def test_measuring_gives_a_transition_matrix() -> None:
    table = measure("basic", 3, matches=30, seed="t")
    assert len(table) == 3
    assert all(sum(row) == pytest.approx(1.0, abs=1e-3) for row in table)


def test_a_match_tells_each_round_how_many_rounds_follow() -> None:
    m = Match.new(RuleSet.preset("standard"), players=4, rounds=5, seed=1)
    assert m.observe(0).rounds_left == 4
    assert m.observe(0).to_json()["rounds_left"] == 4


def _means(player: AdvancedPlayer, obs: Observation) -> list[float]:
    player.choose_move(obs, random.Random(3), Budget(playouts=120))
    assert player.last.visits
    return player.last.means


@pytest.mark.parametrize(("preset", "players"), [("standard", 4), ("uecda", 5)])
def test_the_advanced_player_scores_playouts_by_the_worth_of_places(
    preset: str, players: int
) -> None:
    # The mean of a candidate is the worth of its places, shown in points: with more
    # rounds to come the same search reports other means.
    m = Match.new(RuleSet.preset(preset), players=players, rounds=3, seed=4)
    obs = m.observe(m.round.to_act)
    assert obs.rounds_left == 2
    last = dataclasses.replace(obs, rounds_left=0)
    with_outlook = AdvancedPlayer(outlook=True)
    assert _means(with_outlook, obs) != _means(AdvancedPlayer(outlook=True), last)
    # Points alone: the rounds to come change nothing.
    assert _means(AdvancedPlayer(outlook=False), obs) == _means(AdvancedPlayer(), last)
    # By the rules: the outlook in the site's presets, points alone under UECda's.
    by_rules = _means(AdvancedPlayer(), obs)
    assert (by_rules == _means(with_outlook, obs)) == (preset == "standard")
    assert AdvancedPlayer().place_values(obs) == AdvancedPlayer(
        outlook=preset == "standard"
    ).place_values(obs)
