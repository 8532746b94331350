"""The room set-up: the practice table's form (rules, rounds, computer levels for the seats
left empty) plus the room's own options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from daifugo_site.play.forms import LEVEL_LABELS, NewGameForm
from daifugo_site.play.services import LEVELS

from .models import Room

DROP_TIMEOUTS = {
    "15": _("15 seconds"),
    "30": _("30 seconds"),
    "60": _("1 minute"),
    "120": _("2 minutes"),
}
CLOCKS = {
    "0": _("Off"),
    "15": _("15 seconds a move"),
    "30": _("30 seconds a move"),
    "60": _("1 minute a move"),
}


class RoomForm(NewGameForm):
    # The set-up page's labels of the room's options (templates/rooms/setup.html), also
    # the room page's rules lines (views.room_rules).
    label_drop = _("When someone's connection drops, the computer takes over after")
    label_clock = _("Turn clock")
    label_standin = _("Computer that plays for someone who left")

    mode = forms.ChoiceField(
        choices=[
            (Room.Mode.LINK, _("Friends on their own devices, by link")),
            (Room.Mode.HOTSEAT, _("Everyone on this device (pass it around)")),
        ],
        initial=Room.Mode.LINK,
        required=False,
    )
    name = forms.CharField(max_length=24, required=False)
    humans = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(2, 7)], coerce=int, initial=2, required=False
    )
    drop_timeout = forms.TypedChoiceField(
        choices=list(DROP_TIMEOUTS.items()), coerce=int, initial=30, required=False
    )
    clock = forms.TypedChoiceField(
        choices=list(CLOCKS.items()), coerce=int, initial=0, required=False
    )
    standin_level = forms.ChoiceField(
        choices=[(level, LEVEL_LABELS[level]) for level in LEVELS],
        initial="intermediate",
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["names"] = self._people_names(data)
        if "players" not in data:
            return data
        data["mode"] = data.get("mode") or Room.Mode.LINK
        data["drop_timeout"] = data.get("drop_timeout") or 30
        data["clock"] = data.get("clock") or 0
        data["standin_level"] = data.get("standin_level") or "intermediate"
        humans = data.get("humans") or 2
        if data["mode"] == Room.Mode.HOTSEAT and humans > data["players"]:
            raise forms.ValidationError(
                _("A table of %(players)s cannot seat %(humans)s people.")
                % {"players": data["players"], "humans": humans},
                code="humans",
            )
        data["humans"] = humans
        return data

    def _people_names(self, data: dict[str, Any]) -> list[str]:
        """A hotseat table's names of its people (fields ``person_1``...``person_6``, the
        first ``humans`` of them): each stripped, "" where left empty (the seat's own name
        then); too long or with control characters, a translated error and no room."""
        if data.get("mode") != Room.Mode.HOTSEAT:
            return []
        names = []
        for n in range(1, (data.get("humans") or 2) + 1):
            raw = self.data.get(f"person_{n}", "")
            try:
                names.append(clean_person_name(raw if isinstance(raw, str) else ""))
            except forms.ValidationError as error:
                said = error.message % {"n": n, "max": PERSON_NAME_MAX}
                self.add_error(None, forms.ValidationError(said, code="person_name"))
                names.append("")
        return names


#: A hotseat person's name at most (characters, after stripping).
PERSON_NAME_MAX = 20

# Unicode categories a name may not hold: controls, surrogates, private use, unassigned,
# line and paragraph separators (a name is one line of plain text on every page).
_REFUSED_CATEGORIES = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}
# Direction overrides and isolates would turn the text around them on the pages.
_REFUSED_CHARACTERS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


_TOO_LONG = _("The name of player %(n)s is too long: at most %(max)s characters.")
_UNPRINTABLE = _("The name of player %(n)s holds characters that cannot be shown in a name.")


def clean_person_name(raw: str) -> str:
    """A hotseat person's name: NFC, stripped; "" when empty. Raises ``ValidationError``
    (a sentence with ``%(n)s`` for the person's number) when too long or unprintable."""
    import unicodedata

    if len(raw) > 10 * PERSON_NAME_MAX:
        # Not worth normalising: no spacing makes this a name.
        raise forms.ValidationError(_TOO_LONG)
    text = unicodedata.normalize("NFC", raw).strip()
    if any(
        unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _REFUSED_CHARACTERS for ch in text
    ):
        raise forms.ValidationError(_UNPRINTABLE)
    if len(text) > PERSON_NAME_MAX:
        raise forms.ValidationError(_TOO_LONG)
    return text
