"""The Daifugo rules engine: pure Python (optionally compiled with mypyc), no Django.

Everything a client needs is importable from here::

    >>> from rules_engine import RuleSet, Round
    >>> r = Round.deal(RuleSet.preset("standard"), players=4, seed=1)
    >>> len(r.legal_moves()) > 0
    True
"""

# First: whether the modules below load compiled or from source (rules_engine/native.py).
from . import native as _native

_native.select()

from .actions import Action, ActionError  # noqa: E402
from .cards import CardError, card_codes, format_cards, parse_cards  # noqa: E402
from .match import Match, RecordError  # noqa: E402
from .moves import GROUP, PASS, SEQUENCE, SINGLE, Move, analyse  # noqa: E402
from .observation import Observation, observe, round_from_observation  # noqa: E402
from .rules import PRESET_NAMES, PRESET_PLAYERS, RulesError, RuleSet  # noqa: E402
from .state import REASONS, Refusal, Round, strongest_cards, titles_for  # noqa: E402

__all__ = [
    "Action",
    "ActionError",
    "Match",
    "Observation",
    "RecordError",
    "observe",
    "round_from_observation",
    "GROUP",
    "PASS",
    "PRESET_NAMES",
    "PRESET_PLAYERS",
    "REASONS",
    "SEQUENCE",
    "SINGLE",
    "CardError",
    "Move",
    "Refusal",
    "Round",
    "RuleSet",
    "RulesError",
    "analyse",
    "card_codes",
    "format_cards",
    "parse_cards",
    "strongest_cards",
    "titles_for",
]
