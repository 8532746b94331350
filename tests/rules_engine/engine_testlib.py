"""Helpers shared by the rules engine tests (not a test module)."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import random
import re
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

from rules_engine import Action, Match, Move, Refusal, Round, RuleSet, observe
from rules_engine.cards import REAL_MASK, format_cards, parse_cards
from rules_engine.effects import Effect
from rules_engine.rules import ENGINE_PRESET_NAMES
from rules_engine.state import NAME_CHOICE, ROUND_FIELDS, rank_text

REPO = Path(__file__).resolve().parents[2]
SHARED_SCENARIOS = REPO.parent / "shared" / "scenarios"
PROJECT_SCENARIOS = REPO / "scenarios"
#: The site's four presets and the engine's ``uecda``.
ALL_PRESETS = ENGINE_PRESET_NAMES


def property_settings(max_examples: int) -> settings:
    """Hypothesis settings for the engine's property tests: a fixed number of
    examples, no deadline (the machine is small and shared), no example
    database written into the repository."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def start(
    hands: list[str],
    preset: str = "basic",
    *,
    leader: int | None = 0,
    in_revolution: bool = False,
    previous: list[int] | None = None,
    **overrides: Any,
) -> Round:
    """A round from given hands under a preset with some options overridden.

    ``in_revolution`` starts the round in a revolution (scenario key
    ``revolution``); ``revolution=...`` is the rule option.
    """
    return Round.start(
        RuleSet.preset(preset, **overrides),
        hands,
        leader=leader,
        revolution=in_revolution,
        previous=previous,
    )


def snapshot(r: Round) -> tuple[Any, ...]:
    """Every field of a round, to check that a refused action changed nothing."""
    return tuple(getattr(r, name) for name in ROUND_FIELDS)


def act(r: Round, step: str | tuple[str, str]) -> Round:
    """Apply one play (``"S3 H3"``, ``("S5 JK JK", "group")``) or ``"pass"``.

    It must be accepted."""
    if isinstance(step, tuple):
        text, form = step
    else:
        text, form = step, None
    out = r.apply(text, form=form)
    assert not isinstance(out, Refusal), f"{step!r} refused: {out.reason} on {r!r}"
    return out


def play(r: Round, *steps: str | tuple[str, str]) -> Round:
    """Apply several actions in turn, each by the player to act."""
    for step in steps:
        r = act(r, step)
    return r


def refusal(r: Round, text: str, *, form: str | None = None, seat: int | None = None) -> str:
    """The reason ``text`` is refused; also checks the round did not change."""
    before = snapshot(r)
    out = r.apply(text, seat=seat, form=form)
    assert isinstance(out, Refusal), f"{text!r} was accepted on {r!r}"
    assert snapshot(r) == before
    return out.reason


def legal(r: Round) -> list[str]:
    """The legal move strings, sorted."""
    return sorted(r.legal_strings())


def field(r: Round) -> str | None:
    return str(r.top) if r.top is not None else None


def random_playout(r: Round, rng: random.Random, limit: int = 2000) -> Iterator[Round]:
    """Every state of a random round from ``r`` (included) to its end.

    Exchange returns are chosen at random too. Raises if ``limit`` actions
    do not end the round.
    """
    yield r
    for _ in range(limit):
        if r.phase_name == "over":
            return
        if r.phase_name == "exchange":
            seat = next(s for s in range(r.n) if r.owed[s])
            cards = random_subset(rng, r.hands[seat], r.owed[seat])
            out = r.give(seat, cards)
        elif r.pending is not None:
            out = random_choice(r, rng)
        else:
            out = r.apply(rng.choice(r.legal_moves()))
        assert not isinstance(out, Refusal), out
        r = out
        yield r
    raise AssertionError(f"round not over after {limit} actions")


def random_choice(r: Round, rng: random.Random) -> Round | Refusal:
    """A random legal house-rule choice (RULES.md section 8) applied to ``r``."""
    owed = r.owed_choice()
    assert owed is not None
    choice = rng.choice(r.legal_choices())
    return r.name(owed[0], choice) if owed[1] == NAME_CHOICE else r.choose(owed[0], choice)


def choice_action(r: Round, rng: random.Random) -> Action:
    """The log entry for a random legal house-rule choice."""
    owed = r.owed_choice()
    assert owed is not None
    choice = rng.choice(r.legal_choices())
    if owed[1] == NAME_CHOICE:
        return Action.name(owed[0], rank_text(choice))
    return Action.choose(owed[0], format_cards(choice))


def random_subset(rng: random.Random, cards: int, k: int) -> int:
    """``k`` random cards of a card set (jokers count as cards)."""
    units = [1 << i for i in range(52) if cards >> i & 1]
    units += [1 << 52] * (cards >> 52)
    return sum(rng.sample(units, k))


def move_action(seat: int, move: Any) -> Action:
    """The log entry for a legal move."""
    if move.is_pass:
        return Action.pass_(seat)
    return Action.play(seat, format_cards(move.cards), move.form_name if move.ambiguous else None)


def random_action(m: Match, rng: random.Random) -> Action:
    """A random acceptable action for a match: a legal move, a return, or the next round."""
    r = m.round
    if r.phase_name == "over":
        return Action.next_round()
    if r.phase_name == "exchange":
        seat = rng.choice([s for s in range(r.n) if r.owed[s]])
        return Action.give(seat, format_cards(random_subset(rng, r.hands[seat], r.owed[seat])))
    if r.pending is not None:
        return choice_action(r, rng)
    return move_action(r.to_act, rng.choice(r.legal_moves()))


def random_match(
    rules_: RuleSet, players: int, rounds: int, seed: int | str, rng: random.Random
) -> list[Match]:
    """Every state of a random match from its start to its end."""
    m = Match.new(rules_, players, rounds, seed)
    states = [m]
    while not m.over:
        out = m.apply(random_action(m, rng))
        assert not isinstance(out, Refusal), out
        m = out
        states.append(m)
        assert len(states) < 5000
    return states


def same_match(a: Match, b: Match) -> bool:
    return (
        a.rules == b.rules
        and a.players == b.players
        and a.rounds == b.rounds
        and a.seed == b.seed
        and a.round_no == b.round_no
        and a.round == b.round
        and a.results == b.results
        and a.log == b.log
    )


# -- observations ------------------------------------------------------------------

CARD_CODE = re.compile(r"\b[SHDC][3-9TJQKA2]\b")

# Every field an observation has. A new field must be reviewed for leaks before it
# is added here.
OBSERVATION_FIELDS = {
    "scores",
    "rounds_left",
    "effects",
    "seat",
    "rules",
    "players",
    "phase",
    "to_act",
    "hand",
    "counts",
    "field",
    "field_seat",
    "passed",
    "revolution",
    "jback",
    "lock",
    "number_lock",
    "streak",
    "out",
    "penalised",
    "history",
    "previous",
    "gave",
    "got",
    "owe",
    "partner",
    "result",
    "legal",
    "first_leader",
    # House rules (RULES.md section 8): public, but for a 7渡し gift's cards (choices).
    "direction",
    "owed_choice",
    "pending",
    "discarded",
    "choices",
}
CARD_SET_FIELDS = {"hand", "gave", "got", "discarded"}


def cards_in(value):
    """Every card set inside an observation field value (moves, tuples)."""
    if isinstance(value, Move):
        yield value.cards
    elif isinstance(value, Effect):
        # an effect names cards in its move and, for an exchange gift, in ``cards``
        if value.move is not None:
            yield value.move.cards
        yield value.cards
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from cards_in(item)


def mentioned_cards(obs):
    total = 0
    for f in dataclasses.fields(obs):
        value = getattr(obs, f.name)
        if f.name in CARD_SET_FIELDS:
            total |= value & REAL_MASK
        elif f.name == "choices":
            for entry in value:
                total |= entry[3] & REAL_MASK
        else:
            for cards in cards_in(value):
                total |= cards & REAL_MASK
    return total


def public_cards(r):
    total = 0
    for _seat, move in r.actions():
        total |= move.cards & REAL_MASK
    return total


def check_observation(r, seat, as_json=True):
    obs = observe(r, seat)
    assert obs.seat == seat
    assert obs.hand == r.hands[seat]
    assert obs.counts == r.counts()
    assert obs.phase == r.phase_name
    # the cards it may know: its own hand, public plays and discards, its own exchange,
    # the 7渡し gifts it gave or got
    own_gifts = 0
    for kind, giver, to, cards, _ranks, _size in r.choices:
        if kind == 0 and seat in (giver, to):
            own_gifts |= cards & REAL_MASK
    known = (obs.gave | obs.got) & REAL_MASK | own_gifts
    allowed = obs.hand & REAL_MASK | known | public_cards(r) | r.discarded & REAL_MASK
    seen = mentioned_cards(obs)
    assert seen & ~allowed == 0
    for other in range(r.n):
        if other != seat:
            leaked = r.hands[other] & REAL_MASK & seen & ~known
            assert leaked == 0, f"seat {seat} sees cards of seat {other}"
    assert seen & r.facedown & REAL_MASK == 0
    # an exchange between two other seats stays between them
    if all(seat not in (giver, receiver) for giver, receiver, _c, _a in r.exchange):
        assert obs.gave == obs.got == 0
    # the JSON form holds no other card either
    if as_json:
        text = json.dumps(obs.to_json())
        in_text = parse_cards(sorted(set(CARD_CODE.findall(text))))
        assert in_text & ~allowed == 0
    # legal moves only for the seat to act, and exactly the round's
    if r.phase_name == "play" and r.to_act == seat:
        assert set(obs.legal) == set(r.legal_moves())
        assert len(obs.legal) == len(r.legal_moves())
    else:
        assert obs.legal == ()
    return obs


def source_module(name: str) -> types.ModuleType:
    """The module ``name`` as its source file says (for doctests): the module itself when
    it runs from source, else (the engine compiled with mypyc, rules_engine/native.py) a
    second copy executed from its ``.py`` next to the compiled one, whose functions keep
    their docstrings for doctest to find. Its relative imports reach the compiled siblings."""
    module = importlib.import_module(name)
    path = str(getattr(module, "__file__", ""))
    if path.endswith(".py"):
        return module
    # (A compiled module's __file__ is not a path to trust: build from the package's.)
    package = Path(str(importlib.import_module("rules_engine").__file__)).parent
    source = package.joinpath(*name.split(".")[1:]).with_suffix(".py")
    # Under the module's own name (its classes print as they do compiled), but not in
    # sys.modules: everything else keeps importing the compiled module.
    spec = importlib.util.spec_from_file_location(name, source)
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    copy.__package__ = name.rpartition(".")[0]
    spec.loader.exec_module(copy)
    return copy
