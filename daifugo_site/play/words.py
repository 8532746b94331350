"""The table's words that carry a context (the same English names another action): lazy
strings for the Jinja2 fragments (jinja2/play/table.html reads them as ``words``), where
``make makemessages`` would not find a ``pgettext`` call."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

PLAY_CARDS = pgettext_lazy("card action", "Play")
NAME_RANKS = pgettext_lazy("12-bomber", "Name")
GIVE_CARDS = pgettext_lazy("7-pass", "Give")
DISCARD_CARDS = pgettext_lazy("10-discard", "Discard")
