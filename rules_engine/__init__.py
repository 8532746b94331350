"""The Daifugo rules engine: pure Python, no Django.

Everything a client needs is importable from here::

    >>> from rules_engine import RuleSet, Round
    >>> r = Round.deal(RuleSet.preset("standard"), players=4, seed=1)
    >>> len(r.legal_moves()) > 0
    True
"""

from .actions import Action, ActionError
from .cards import CardError, card_codes, format_cards, parse_cards
from .match import Match, RecordError
from .moves import GROUP, PASS, SEQUENCE, SINGLE, Move, analyse
from .observation import Observation, observe, round_from_observation
from .rules import PRESET_NAMES, PRESET_PLAYERS, RulesError, RuleSet
from .state import REASONS, Refusal, Round, strongest_cards, titles_for

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
