"""Rule sets: every option of RULES.md and the four presets.

>>> rules = RuleSet.preset("standard")
>>> rules.eight_cut, rules.jokers, rules.revolution_sequence_min
('groups', 1, 5)
>>> RuleSet.from_json({"preset": "party", "forbidden_finish": ["joker"]}).forbidden_finish
('joker',)
>>> RuleSet.from_json(RuleSet.preset("classic").to_json()) == RuleSet.preset("classic")
True
>>> house = RuleSet.preset("house", sandstorm=True)
>>> house.seven_pass, house.twelve_bomber, house.to_json()
('groups', 'off', {'preset': 'house', 'sandstorm': True})
>>> RuleSet.from_json(house.to_json()) == house
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

FORBIDDEN_FINISH_ENTRIES = (
    "joker",
    "lone_joker",
    "top_rank",
    "eight",
    "eight_cut",
    "spade3_return",
    "revolution",
)
EIGHT_CUT_VALUES = ("off", "groups", "any")
JBACK_VALUES = ("off", "groups", "any")
SEQUENCE_BEATS_VALUES = ("above_top", "above_bottom")
#: The house rules of RULES.md section 8 counted like the 8-cut (``sandstorm`` is a switch).
HOUSE_VALUES = ("off", "groups", "any")
HOUSE_OPTIONS = ("seven_pass", "ten_discard", "twelve_bomber", "five_skip", "nine_reverse")
PRESET_NAMES = ("standard", "party", "classic", "basic")
#: Presets the engine knows beyond the site's four: ``uecda`` is the computer-Daihinmin
#: tournament's standard rules (UECda), for the bridge in ``uecda``. The site
#: offers PRESET_NAMES only: a UECda table is five computer programs, not a practice game.
#: ``house`` (RULES.md section 8) joins PRESET_NAMES once the site offers its switches.
ENGINE_PRESET_NAMES = PRESET_NAMES + ("house", "uecda")

#: What the party preset forbids when its "illegal finish" switch is turned on.
PARTY_FORBIDDEN_FINISH = ("joker", "top_rank", "eight", "revolution")

#: Table sizes each preset is written for (RULES.md section 6). The engine
#: plays any preset at 2..6 seats; the site offers these.
PRESET_PLAYERS: dict[str, tuple[int, ...]] = {
    "standard": (4, 2),
    "party": (3, 4),
    "classic": (4, 5, 6),
    "basic": (3, 4, 5, 6),
    "house": (3, 4, 5, 6),
    "uecda": (5,),
}
MIN_PLAYERS = 2
MAX_PLAYERS = 6


class RulesError(ValueError):
    """An unknown option or an option value outside RULES.md."""


# A Python class even when the module is compiled: mypyc's native classes cannot be
# frozen dataclasses (rules_engine/_native.py).
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class RuleSet:
    """One combination of RULES.md options. Immutable and hashable.

    ``preset_name`` only records which preset the values started from; the
    fields decide.
    """

    preset_name: str = "basic"
    jokers: int = 1
    sequence_min: int = 3
    sequence_beats: str = "above_top"
    revolution: bool = True
    revolution_group_min: int = 4
    revolution_sequence_min: int | None = None
    eight_cut: str = "off"
    jback: str = "off"
    suit_lock: bool = False
    suit_lock_after: int = 2
    number_lock: bool = False
    spade3_return: bool = False
    forbidden_finish: tuple[str, ...] = ()
    forbidden_finish_sequences_exempt: bool = False
    miyako_ochi: bool = False
    pass_until_clear: bool = False
    hand_size: int | None = None
    # UECda's differences (RULES.md section 3, "UECda options"); off in the site's presets.
    return_to_last: bool = False
    joker_suit: bool = False
    eight_cut_joker: bool = False
    leader_may_pass: bool = False
    diamond3_leads: bool = False
    joker_beyond_ends: bool = False
    # House rules (RULES.md section 8); off everywhere but the ``house`` preset.
    seven_pass: str = "off"
    ten_discard: str = "off"
    twelve_bomber: str = "off"
    five_skip: str = "off"
    nine_reverse: str = "off"
    sandstorm: bool = False
    # Derived at construction for the hot path (not options, not compared).
    ff_mask: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._validate()
        mask = 0
        for entry in self.forbidden_finish:
            mask |= 1 << FORBIDDEN_FINISH_ENTRIES.index(entry)
        object.__setattr__(self, "ff_mask", mask)

    def _validate(self) -> None:
        def bad(name: str, value: object) -> RulesError:
            return RulesError(f"option {name} cannot be {value!r}")

        for name in (
            "jokers",
            "sequence_min",
            "revolution_group_min",
            "suit_lock_after",
            "revolution_sequence_min",
            "hand_size",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, type(None))):
                raise bad(name, value)
        if self.jokers not in (0, 1, 2):
            raise bad("jokers", self.jokers)
        if self.sequence_min not in (3, 4, 5):
            raise bad("sequence_min", self.sequence_min)
        if self.sequence_beats not in SEQUENCE_BEATS_VALUES:
            raise bad("sequence_beats", self.sequence_beats)
        if self.revolution_group_min not in (3, 4, 5):
            raise bad("revolution_group_min", self.revolution_group_min)
        if self.revolution_sequence_min not in (None, 3, 4, 5, 6):
            raise bad("revolution_sequence_min", self.revolution_sequence_min)
        if self.eight_cut not in EIGHT_CUT_VALUES:
            raise bad("eight_cut", self.eight_cut)
        if self.jback not in JBACK_VALUES:
            raise bad("jback", self.jback)
        for name in HOUSE_OPTIONS:
            if getattr(self, name) not in HOUSE_VALUES:
                raise bad(name, getattr(self, name))
        if self.suit_lock_after not in (2, 3):
            raise bad("suit_lock_after", self.suit_lock_after)
        for entry in self.forbidden_finish:
            if entry not in FORBIDDEN_FINISH_ENTRIES:
                raise bad("forbidden_finish", entry)
        if len(set(self.forbidden_finish)) != len(self.forbidden_finish):
            raise bad("forbidden_finish", self.forbidden_finish)
        if self.hand_size is not None and not 1 <= self.hand_size <= 26:
            raise bad("hand_size", self.hand_size)
        for name in (
            "revolution",
            "suit_lock",
            "number_lock",
            "spade3_return",
            "forbidden_finish_sequences_exempt",
            "miyako_ochi",
            "pass_until_clear",
            "return_to_last",
            "joker_suit",
            "eight_cut_joker",
            "leader_may_pass",
            "diamond3_leads",
            "joker_beyond_ends",
            "sandstorm",
        ):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, getattr(self, name))

    # -- construction -------------------------------------------------------

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RuleSet:
        """A preset of RULES.md section 6, optionally with options overridden."""
        try:
            values = dict(_PRESETS[name])
        except KeyError:
            raise RulesError(f"unknown preset {name!r}") from None
        values.update(overrides)
        return cls.from_options(values)

    @classmethod
    def from_options(cls, values: Mapping[str, Any]) -> RuleSet:
        known = {f.name for f in dataclasses.fields(cls) if f.name != "ff_mask"}
        unknown = set(values) - known
        if unknown:
            raise RulesError(f"unknown option(s): {', '.join(sorted(unknown))}")
        clean = dict(values)
        if "forbidden_finish" in clean:
            ff = clean["forbidden_finish"]
            if isinstance(ff, str) or not isinstance(ff, (list, tuple)):
                raise RulesError("forbidden_finish must be a list")
            # Canonical order so that equal rule sets compare equal.
            clean["forbidden_finish"] = tuple(
                e for e in FORBIDDEN_FINISH_ENTRIES if e in ff
            ) + tuple(e for e in ff if e not in FORBIDDEN_FINISH_ENTRIES)
        return cls(**clean)

    def replace(self, **overrides: Any) -> RuleSet:
        """A copy with some options changed."""
        values = self.options()
        values.update(overrides)
        return RuleSet.from_options(values)

    def options(self) -> dict[str, Any]:
        """Every option by name (``preset_name`` included)."""
        return {
            f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "ff_mask"
        }

    # -- JSON ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """``{"preset": NAME, ...overrides}``: only options that differ from the preset."""
        base = RuleSet.preset(self.preset_name) if self.preset_name in _PRESETS else RuleSet()
        data: dict[str, Any] = {"preset": self.preset_name}
        for name, value in self.options().items():
            if name != "preset_name" and getattr(base, name) != value:
                data[name] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleSet:
        """Rules as in SCENARIOS.md: ``{"preset": NAME}`` plus overrides."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object")
        values = dict(data)
        name = values.pop("preset", "basic")
        if not isinstance(name, str):
            raise RulesError("preset must be a name")
        if "preset_name" in values:
            raise RulesError("unknown option(s): preset_name")
        return cls.preset(name, **values)

    # -- derived ------------------------------------------------------------

    def forbids(self, entry: str) -> bool:
        return entry in self.forbidden_finish

    @property
    def has_house_rules(self) -> bool:
        """Whether any option of RULES.md section 8 is on.

        >>> RuleSet.preset("house").has_house_rules, RuleSet.preset("standard").has_house_rules
        (True, False)
        """
        return self.sandstorm or any(getattr(self, name) != "off" for name in HOUSE_OPTIONS)


_PRESETS: dict[str, dict[str, Any]] = {
    "standard": {
        "preset_name": "standard",
        "jokers": 1,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": 5,
        "eight_cut": "groups",
        "jback": "off",
        "suit_lock": True,
        "suit_lock_after": 2,
        "spade3_return": True,
        "forbidden_finish": ("joker", "top_rank", "eight_cut", "spade3_return"),
        "miyako_ochi": True,
        "pass_until_clear": False,
    },
    "party": {
        "preset_name": "party",
        "jokers": 2,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": None,
        "eight_cut": "any",
        "jback": "any",
        "suit_lock": True,
        "suit_lock_after": 2,
        "spade3_return": True,
        "forbidden_finish": (),
        "miyako_ochi": True,
        "pass_until_clear": True,
    },
    "classic": {
        "preset_name": "classic",
        "jokers": 1,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": 4,
        "eight_cut": "groups",
        "jback": "groups",
        "suit_lock": True,
        "suit_lock_after": 2,
        "spade3_return": True,
        "forbidden_finish": ("lone_joker", "top_rank", "eight"),
        "forbidden_finish_sequences_exempt": True,
        "miyako_ochi": True,
        "pass_until_clear": False,
    },
    "basic": {
        "preset_name": "basic",
        "jokers": 1,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": None,
        "eight_cut": "off",
        "jback": "off",
        "suit_lock": False,
        "spade3_return": False,
        "forbidden_finish": (),
        "miyako_ochi": False,
        "pass_until_clear": False,
    },
    # RULES.md section 8: standard plus 11-back by Js and four of the house rules.
    "house": {
        "preset_name": "house",
        "jokers": 1,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_sequence_min": 5,
        "eight_cut": "groups",
        "jback": "groups",
        "suit_lock": True,
        "suit_lock_after": 2,
        "spade3_return": True,
        "forbidden_finish": ("joker", "top_rank", "eight_cut", "spade3_return"),
        "miyako_ochi": True,
        "pass_until_clear": False,
        "seven_pass": "groups",
        "ten_discard": "groups",
        "five_skip": "groups",
        "nine_reverse": "groups",
    },
    # UECda's standard rules (the tournament server's defaults): 5 players, 53 cards,
    # revolution by 4+ groups or 5+ sequences, 8-cut by any play covering an 8 (a joker
    # standing for one too), suit lock after one match, spade-3 return, no 11-back, no
    # forbidden finish, no miyako-ochi, pass until the field clears, the turn back to the
    # last player before it clears, a joker with a suit, the leader may pass, the
    # diamond 3 leads every game, and a sequence's joker may stand past the 2 or below the 3.
    "uecda": {
        "preset_name": "uecda",
        "jokers": 1,
        "sequence_beats": "above_top",
        "revolution": True,
        "revolution_group_min": 4,
        "revolution_sequence_min": 5,
        "eight_cut": "any",
        "jback": "off",
        "suit_lock": True,
        "suit_lock_after": 2,
        "number_lock": False,
        "spade3_return": True,
        "forbidden_finish": (),
        "miyako_ochi": False,
        "pass_until_clear": True,
        "return_to_last": True,
        "joker_suit": True,
        "eight_cut_joker": True,
        "leader_may_pass": True,
        "diamond3_leads": True,
        "joker_beyond_ends": True,
    },
}

#: The rated one-on-one game: standard rules, 13 cards each, 27 face down.
ONE_ON_ONE = {"preset": "standard", "hand_size": 13}
