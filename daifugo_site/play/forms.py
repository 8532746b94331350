"""The table set-up form: table size, preset, every RULES.md option, rounds, computer levels.

Each option field starts at "as the preset says"; only the switches a player changes become
overrides, so a game stores ``{"preset": ..., <overrides>}`` like a scenario does.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from daifugo_site.ui.labels import preset_label, preset_label_lazy
from rules_engine import PRESET_PLAYERS, RulesError, RuleSet
from rules_engine.rules import (
    EIGHT_CUT_VALUES,
    FORBIDDEN_FINISH_ENTRIES,
    HOUSE_OPTIONS,
    HOUSE_VALUES,
    JBACK_VALUES,
    PARTY_FORBIDDEN_FINISH,
    SEQUENCE_BEATS_VALUES,
)

from .services import LEVELS

PRESET_DEFAULT = ""
TABLES = ("4", "3", "5", "6", "1v1")

# The names come from ui.labels.preset_label, like everywhere else; the set-up list says
# what "basic" means.
PRESET_LABELS = {
    "standard": preset_label_lazy("standard"),
    "party": preset_label_lazy("party"),
    "classic": preset_label_lazy("classic"),
    "basic": pgettext_lazy("preset", "Basic (no local rules)"),
    "house": preset_label_lazy("house"),
}
TABLE_LABELS = {
    "4": _("4 players: you and 3 computers"),
    "3": _("3 players: you and 2 computers"),
    "5": _("5 players: you and 4 computers"),
    "6": _("6 players: you and 5 computers"),
    "1v1": _("One on one: 13 cards each, one round"),
}
LEVEL_LABELS = {
    "beginner": pgettext_lazy("computer level", "Beginner"),
    "intermediate": pgettext_lazy("computer level", "Intermediate"),
    "advanced": pgettext_lazy("computer level", "Advanced"),
}
SPEEDS = {
    "300": _("Fast"),
    "700": _("Normal"),
    "1400": _("Slow"),
}
ON, OFF = "on", "off"
NONE = "none"

#: The options offered as switches, with the values each can take (as form strings).
#: ``forbidden_finish`` has its own field (several entries at once).
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "jokers": ("0", "1", "2"),
    "sequence_beats": SEQUENCE_BEATS_VALUES,
    "revolution": (ON, OFF),
    "revolution_sequence_min": (NONE, "4", "5"),
    "eight_cut": EIGHT_CUT_VALUES,
    "jback": JBACK_VALUES,
    "suit_lock": (ON, OFF),
    "suit_lock_after": ("2", "3"),
    "number_lock": (ON, OFF),
    "spade3_return": (ON, OFF),
    "forbidden_finish_sequences_exempt": (ON, OFF),
    "miyako_ochi": (ON, OFF),
    "pass_until_clear": (ON, OFF),
    # The house rules of RULES.md section 8 (off in every preset but "house").
    **{name: HOUSE_VALUES for name in HOUSE_OPTIONS},
    "sandstorm": (ON, OFF),
}
#: The house-rule switches, which the one-on-one table (the rated game's) never takes.
HOUSE_SWITCHES = (*HOUSE_OPTIONS, "sandstorm")

# The house rules' names and values when the rules pages' data has none for them yet
# (their RuleOption rows come with the rules reference): never an option's code name.
HOUSE_LABELS = {
    "seven_pass": pgettext_lazy("house rule", "7 pass (give cards to the next player)"),
    "ten_discard": pgettext_lazy("house rule", "10 discard (throw cards away)"),
    "twelve_bomber": pgettext_lazy("house rule", "12 bomber (name ranks everyone discards)"),
    "five_skip": pgettext_lazy("house rule", "5 skip (the next players lose their turn)"),
    "nine_reverse": pgettext_lazy("house rule", "9 reverse (the direction of play turns)"),
    "sandstorm": pgettext_lazy("house rule", "Sandstorm (three 3s beat anything)"),
}
HOUSE_VALUE_LABELS = {
    "off": pgettext_lazy("option value", "off"),
    "groups": pgettext_lazy("house rule count", "Singles and groups of that rank"),
    "any": pgettext_lazy("house rule count", "Any play with that rank, sequences too"),
}


def to_form_value(value: Any) -> str:
    if value is True:
        return ON
    if value is False:
        return OFF
    if value is None:
        return NONE
    return str(value)


def from_form_value(name: str, text: str) -> Any:
    if text in (ON, OFF):
        return text == ON
    if text == NONE:
        return None
    if name in ("jokers", "revolution_sequence_min", "suit_lock_after"):
        return int(text)
    return text


def option_texts() -> dict[str, Any]:
    """Labels, descriptions and rules links of each option, from the rules pages' data."""
    from daifugo_site.pages.models import RuleOption

    return {option.name: option for option in RuleOption.objects.select_related("section")}


class NewGameForm(forms.Form):
    table = forms.ChoiceField(label=_("Table"), choices=list(TABLE_LABELS.items()), initial="4")
    preset = forms.ChoiceField(
        label=_("Rules preset"), choices=list(PRESET_LABELS.items()), initial="standard"
    )
    rounds = forms.TypedChoiceField(
        label=_("Rounds in the match"),
        choices=[(3, "3"), (5, "5"), (7, "7")],
        coerce=int,
        initial=3,
    )
    speed = forms.ChoiceField(
        label=_("Computer speed"), choices=list(SPEEDS.items()), initial="700"
    )
    forbidden_finish_custom = forms.BooleanField(
        label=_("Choose the forbidden finishes myself"), required=False
    )
    forbidden_finish = forms.MultipleChoiceField(
        label=_("Forbidden finishes"),
        choices=[(entry, entry) for entry in FORBIDDEN_FINISH_ENTRIES],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        texts = option_texts()
        self.option_texts = texts
        for name, values in OPTION_VALUES.items():
            option = texts.get(name)
            value_labels = option.value_labels() if option is not None else {}
            if name in HOUSE_OPTIONS and not value_labels:
                value_labels = {value: str(text) for value, text in HOUSE_VALUE_LABELS.items()}
            choices = [(PRESET_DEFAULT, _("As the preset says"))]
            for value in values:
                choices.append((value, value_labels.get(value) or _default_value_label(value)))
            label = option.label if option is not None else HOUSE_LABELS.get(name, name)
            self.fields[f"opt_{name}"] = forms.ChoiceField(
                label=label,
                choices=choices,
                required=False,
            )
        ff = texts.get("forbidden_finish")
        if ff is not None:
            labels = ff.value_labels()
            self.fields["forbidden_finish"].choices = [
                (entry, labels.get(entry, entry)) for entry in FORBIDDEN_FINISH_ENTRIES
            ]
        for i in range(1, 6):
            self.fields[f"level_{i}"] = forms.ChoiceField(
                label=_("Computer %(n)d") % {"n": i},
                choices=[(level, LEVEL_LABELS[level]) for level in LEVELS],
                initial="beginner",
                required=False,
            )

    def option_rows(self) -> list[dict[str, Any]]:
        """Each option switch with its explanation and rules link, for the template."""
        rows = []
        for name in OPTION_VALUES:
            rows.append(
                {
                    "name": name,
                    "field": self[f"opt_{name}"],
                    "text": self.option_texts.get(name),
                }
            )
        return rows

    def level_fields(self) -> list[forms.BoundField]:
        return [self[f"level_{i}"] for i in range(1, 6)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in OPTION_VALUES:
            if f"opt_{name}" in self.errors:
                # The page lists the form's errors at its top: say which switch it was.
                self.add_error(
                    None,
                    _("%(option)s: choose one of the values offered.")
                    % {"option": self.fields[f"opt_{name}"].label},
                )
        table = data.get("table")
        preset = data.get("preset")
        if not table or not preset:
            return data
        players = 2 if table == "1v1" else int(table)
        if table == "1v1" and preset != "standard":
            raise forms.ValidationError(
                _("The one-on-one game is played with the standard preset only."),
                code="table",
            )
        if table != "1v1" and players not in PRESET_PLAYERS[preset]:
            separator = pgettext("list separator", ", ")
            allowed = separator.join(str(n) for n in sorted(PRESET_PLAYERS[preset]) if n >= 3)
            raise forms.ValidationError(
                _("The %(preset)s preset is for tables of %(allowed)s players.")
                % {"preset": preset_label(preset), "allowed": allowed},
                code="table",
            )
        overrides: dict[str, Any] = {}
        for name in OPTION_VALUES:
            text = data.get(f"opt_{name}") or PRESET_DEFAULT
            if text != PRESET_DEFAULT:
                overrides[name] = from_form_value(name, text)
        if data.get("forbidden_finish_custom"):
            overrides["forbidden_finish"] = list(data.get("forbidden_finish") or [])
        if table == "1v1":
            if any(overrides.get(name, "off") not in ("off", False) for name in HOUSE_SWITCHES):
                # The one-on-one table is the rated game's: standard rules only.
                raise forms.ValidationError(
                    _("The one-on-one game is played without house rules."), code="table"
                )
            overrides["hand_size"] = 13
        try:
            rules = RuleSet.preset(preset, **overrides)
        except RulesError:
            raise forms.ValidationError(
                _("These options do not fit together."), code="rules"
            ) from None
        data["rules"] = rules
        data["players"] = players
        data["match_rounds"] = 1 if table == "1v1" else data.get("rounds", 3)
        data["levels"] = [data.get(f"level_{i}") or "beginner" for i in range(1, players)]
        return data


def _default_value_label(value: str) -> str:
    return {ON: str(_("On")), OFF: str(_("Off")), NONE: str(_("None"))}.get(value, value)


def preset_values_json() -> dict[str, dict[str, str]]:
    """Each preset's option values as form strings (the page shows what "as the preset
    says" means for the chosen preset)."""
    out: dict[str, dict[str, str]] = {}
    for name in PRESET_LABELS:
        rules = RuleSet.preset(name)
        out[name] = {opt: to_form_value(getattr(rules, opt)) for opt in OPTION_VALUES}
        out[name]["forbidden_finish"] = " ".join(rules.forbidden_finish)
        # The tables this preset is played at (clean() refuses the others): the page
        # offers only these with it, so the refusal is rarely seen.
        out[name]["tables"] = " ".join(t for t in TABLES if table_allowed(t, name))
    return out


def table_allowed(table: str, preset: str) -> bool:
    """Whether ``preset`` is played at ``table`` (a TABLES value), as clean() judges it."""
    if table == "1v1":
        return preset == "standard"
    return int(table) in PRESET_PLAYERS[preset]


__all__ = ["NewGameForm", "PARTY_FORBIDDEN_FINISH", "preset_values_json"]
