"""How a rule option's value reads on a page, in the active language.

Shared by the presets table and the example hands ("standard, with number lock: on"). Named
values (``"groups"``, ``"any"``, forbidden-finish entries) use the RuleOptionValue labels of
the content; booleans, numbers and "not set" are worded here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext


def list_separator() -> str:
    # Translators: between the items of a short list, e.g. "4, 5, 6" (Chinese: "、").
    return pgettext("list separator", ", ")


def format_value(value: Any, labels: Mapping[str, str]) -> str:
    """One option value as text: ``True`` -> "on", ``"any"`` -> its label, ``()`` -> "none"."""
    if value is True:
        return pgettext("option value", "on")
    if value is False:
        return pgettext("option value", "off")
    if value is None:
        return pgettext("option value", "not set")
    if isinstance(value, (list, tuple)):
        if not value:
            return pgettext("option value", "none")
        return list_separator().join(labels.get(str(item), str(item)) for item in value)
    return labels.get(str(value), str(value))


def format_players(counts: tuple[int, ...]) -> str:
    numbers = list_separator().join(str(n) for n in sorted(counts))
    return gettext("%(numbers)s players") % {"numbers": numbers}
