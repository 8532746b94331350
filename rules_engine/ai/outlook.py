"""What a place is worth when more rounds follow.

A place earns this round's points, and it also decides the class the seat brings
into the next round: the exchange hands the top classes the bottom classes'
strongest cards, so first place now is worth more than its points, and last place
costs more than its own. The advanced player scores its playouts by
:func:`place_values`, so in a match (and in UECda's long runs of games) it weighs
the next rounds' outlook as well as this round's points.

The outlook comes from a transition table: ``TRANSITIONS[(preset, players)][c][p]``
is the chance that a seat of class ``c`` (0 = first last round) finishes at place
``p`` this round. The table below was measured by self-play of the intermediate
player, every seat the same (``python -m rules_engine.ai.outlook`` measures it again
and prints it). It is looked up by the preset the rules started from and the table
size; where there is none (two seats: no exchange), the player plays for this
round's points only.

>>> place_values(RuleSet.preset("standard"), 4, rounds_left=0)
(1.0, 0.6667, 0.3333, 0.0)
>>> v = place_values(RuleSet.preset("standard"), 4, rounds_left=2)
>>> v[0] == 1.0 and v[-1] == 0.0 and v[0] > v[1] > v[2] > v[3]
True
>>> place_values(RuleSet.preset("standard"), 2, rounds_left=5)   # no exchange at two seats
(1.0, 0.0)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import lru_cache

from ..rules import PRESET_PLAYERS, RuleSet

#: Rounds looked ahead at most: the class is forgotten within a few rounds.
HORIZON = 8
#: Each place stays worth at least this many points more than the next. Where the
#: former first place drops out last unless it wins again (miyako-ochi), the table alone
#: can rate second above first; nobody should watch a computer hold back from going out.
MIN_GAP = 0.5

Table = tuple[tuple[float, ...], ...]

# Measured with `python -m rules_engine.ai.outlook --matches 6000` (intermediate self-play;
# rows: class brought in, first to last; columns: place this round).
TRANSITIONS: dict[tuple[str, int], Table] = {
    ("standard", 4): (
        (0.4262, 0.0000, 0.0187, 0.5552),
        (0.2828, 0.3302, 0.2505, 0.1365),
        (0.1273, 0.3287, 0.3803, 0.1637),
        (0.1637, 0.3412, 0.3505, 0.1447),
    ),
    ("party", 3): (
        (0.4562, 0.0000, 0.5438),
        (0.2823, 0.5068, 0.2108),
        (0.2615, 0.4932, 0.2453),
    ),
    ("party", 4): (
        (0.4325, 0.0000, 0.0000, 0.5675),
        (0.3058, 0.3543, 0.2367, 0.1032),
        (0.1258, 0.3255, 0.3767, 0.1720),
        (0.1358, 0.3202, 0.3867, 0.1573),
    ),
    ("classic", 4): (
        (0.3942, 0.0002, 0.0188, 0.5868),
        (0.2825, 0.3357, 0.2615, 0.1203),
        (0.1447, 0.3292, 0.3775, 0.1487),
        (0.1787, 0.3350, 0.3422, 0.1442),
    ),
    ("classic", 5): (
        (0.3898, 0.0000, 0.0003, 0.0172, 0.5927),
        (0.2500, 0.2860, 0.2015, 0.1758, 0.0867),
        (0.1285, 0.2465, 0.2603, 0.2635, 0.1012),
        (0.1068, 0.2337, 0.2665, 0.2795, 0.1135),
        (0.1248, 0.2338, 0.2713, 0.2640, 0.1060),
    ),
    ("classic", 6): (
        (0.3515, 0.0000, 0.0000, 0.0005, 0.0183, 0.6297),
        (0.2183, 0.2492, 0.1838, 0.1545, 0.1312, 0.0630),
        (0.1093, 0.2107, 0.2035, 0.2050, 0.1990, 0.0725),
        (0.1187, 0.1980, 0.1985, 0.2032, 0.2085, 0.0732),
        (0.0977, 0.1783, 0.2033, 0.2102, 0.2238, 0.0867),
        (0.1045, 0.1638, 0.2108, 0.2267, 0.2192, 0.0750),
    ),
    ("basic", 3): (
        (0.4947, 0.2877, 0.2177),
        (0.2368, 0.3557, 0.4075),
        (0.2685, 0.3567, 0.3748),
    ),
    ("basic", 4): (
        (0.5153, 0.2488, 0.1310, 0.1048),
        (0.2917, 0.3332, 0.2090, 0.1662),
        (0.0843, 0.1973, 0.3208, 0.3975),
        (0.1087, 0.2207, 0.3392, 0.3315),
    ),
    ("basic", 5): (
        (0.5088, 0.2392, 0.1303, 0.0705, 0.0512),
        (0.2617, 0.2957, 0.1820, 0.1505, 0.1102),
        (0.1033, 0.1628, 0.2230, 0.2417, 0.2692),
        (0.0555, 0.1397, 0.2148, 0.2695, 0.3205),
        (0.0707, 0.1627, 0.2498, 0.2678, 0.2490),
    ),
    ("basic", 6): (
        (0.4928, 0.2402, 0.1285, 0.0640, 0.0460, 0.0285),
        (0.2425, 0.2695, 0.1778, 0.1418, 0.0945, 0.0738),
        (0.0870, 0.1337, 0.1740, 0.1858, 0.2068, 0.2127),
        (0.0890, 0.1460, 0.1692, 0.1767, 0.1953, 0.2238),
        (0.0408, 0.0938, 0.1527, 0.1928, 0.2363, 0.2835),
        (0.0478, 0.1168, 0.1978, 0.2388, 0.2210, 0.1777),
    ),
    ("house", 3): (
        (0.3850, 0.0253, 0.5897),
        (0.2930, 0.4968, 0.2102),
        (0.3220, 0.4778, 0.2002),
    ),
    ("house", 4): (
        (0.3320, 0.0008, 0.0400, 0.6272),
        (0.2678, 0.3153, 0.2727, 0.1442),
        (0.1743, 0.3427, 0.3633, 0.1197),
        (0.2258, 0.3412, 0.3240, 0.1090),
    ),
    ("house", 5): (
        (0.3257, 0.0000, 0.0008, 0.0350, 0.6385),
        (0.2283, 0.2682, 0.2030, 0.1915, 0.1090),
        (0.1453, 0.2490, 0.2525, 0.2595, 0.0937),
        (0.1282, 0.2398, 0.2787, 0.2683, 0.0850),
        (0.1725, 0.2430, 0.2650, 0.2457, 0.0738),
    ),
    ("house", 6): (
        (0.2787, 0.0000, 0.0000, 0.0007, 0.0355, 0.6852),
        (0.2035, 0.2325, 0.1892, 0.1475, 0.1540, 0.0733),
        (0.1315, 0.1943, 0.1942, 0.2092, 0.2090, 0.0618),
        (0.1338, 0.2065, 0.2015, 0.2045, 0.1953, 0.0583),
        (0.1105, 0.1797, 0.2083, 0.2212, 0.2202, 0.0602),
        (0.1420, 0.1870, 0.2068, 0.2170, 0.1860, 0.0612),
    ),
    ("uecda", 5): (
        (0.4740, 0.2557, 0.1338, 0.0848, 0.0517),
        (0.2618, 0.2680, 0.2025, 0.1533, 0.1143),
        (0.1070, 0.1783, 0.2318, 0.2365, 0.2463),
        (0.0837, 0.1625, 0.2280, 0.2568, 0.2690),
        (0.0735, 0.1355, 0.2038, 0.2685, 0.3187),
    ),
}


def transitions(rules: RuleSet, players: int) -> Table | None:
    """The measured table for these rules and table size, if any."""
    return TRANSITIONS.get((rules.preset_name, players))


@lru_cache(maxsize=256)
def place_values(rules: RuleSet, players: int, rounds_left: int | None) -> tuple[float, ...]:
    """The worth of each place (first .. last) this round, scaled from 1 to 0: its
    points (``players - 1`` for first .. 0 for last) plus the expected points of up
    to :data:`HORIZON` of the ``rounds_left`` rounds that follow."""
    base = [float(players - 1 - p) for p in range(players)]
    table = transitions(rules, players) if players >= 3 and rounds_left else None
    value = base
    if table is not None and rounds_left:
        for _ in range(min(rounds_left, HORIZON)):
            value = [
                base[c] + sum(table[c][p] * value[p] for p in range(players))
                for c in range(players)
            ]
    for p in range(1, players):
        value[p] = min(value[p], value[p - 1] - MIN_GAP)
    top, bottom = value[0], value[-1]
    span = top - bottom
    if span <= 0:  # pragma: no cover - first place always earns more
        return tuple(1.0 - p / max(1, players - 1) for p in range(players))
    return tuple(round((v - bottom) / span, 4) for v in value)


# -- measuring the table ---------------------------------------------------------------


def measure(preset: str, players: int, matches: int, seed: int | str = 1) -> Table:
    """Transition frequencies from ``matches`` two-round matches of the intermediate
    heuristic at every seat."""
    from ..actions import Action
    from ..cards import format_cards
    from ..match import Match
    from ..state import EXCHANGE, NAME_CHOICE, OVER, Refusal, rank_text
    from .choices import observation_choices
    from .heuristics import heuristic_move, observation_choice, return_cards

    rules = RuleSet.preset(preset)
    # The heuristic in every preset, UECda's included (where the intermediate level plays
    # the learned policy): the shipped tables were all measured by it (what
    # IntermediatePlayer(policy=False) plays; the player itself builds on this module).
    counts = [[0] * players for _ in range(players)]
    for i in range(matches):
        m: Match | Refusal = Match.new(rules, players, 3, f"{seed}:{preset}:{players}:{i}")
        assert isinstance(m, Match)
        while len(m.results) < 2:
            r = m.round
            if r.phase == OVER:
                action = Action.next_round()
            elif r.phase == EXCHANGE:
                seat = next(s for s in range(players) if r.owed[s])
                obs = m.observe(seat)
                cards = return_cards(obs.hand, obs.owe, obs.rules)
                action = Action.give(seat, format_cards(cards))
            elif (owed := r.owed_choice()) is not None:
                # A house-rule choice (RULES.md section 8).
                choice = observation_choices(m.observe(owed[0]))[0]
                action = (
                    Action.name(owed[0], rank_text(choice))
                    if owed[1] == NAME_CHOICE
                    else Action.choose(owed[0], format_cards(choice))
                )
            else:
                move = observation_choice(m.observe(r.to_act), heuristic_move)
                action = (
                    Action.pass_(r.to_act)
                    if move.form == 0
                    else Action.play(r.to_act, format_cards(move.cards), form=move.form_name)
                )
            m = m.apply(action)
            if isinstance(m, Refusal):  # pragma: no cover - the engine refused its own move
                raise RuntimeError(m.reason)
        first, second = m.results[0], m.results[1]
        for place, seat in enumerate(second):
            counts[first.index(seat)][place] += 1
    return tuple(tuple(round(c / sum(row), 4) for c in row) for row in counts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules_engine.ai.outlook")
    parser.add_argument("--matches", type=int, default=6000)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)
    print("TRANSITIONS: dict[tuple[str, int], Table] = {")
    for preset, sizes in PRESET_PLAYERS.items():
        for players in sorted(sizes):
            if players < 3:
                continue
            table = measure(preset, players, args.matches, args.seed)
            print(f"    ({preset!r}, {players}): (")
            for row in table:
                print("        (" + ", ".join(f"{x:.4f}" for x in row) + "),")
            print("    ),", flush=True)
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
