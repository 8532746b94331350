"""The site's three parts, in one place for the navigation and the home page.

The navigation shows a part only once its URL name resolves (``{% site_sections
available_only=True %}``), so a part appears by adding its routes, not by editing templates.
The URL names below are the contract with the apps that will provide them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Section:
    key: str
    url_name: str
    title: str | Promise
    summary: str | Promise


SECTIONS: tuple[Section, ...] = (
    Section(
        key="rules",
        url_name="rules:index",
        title=_("Rules"),
        summary=_(
            "How a round goes, what beats what, and the local rules: revolution, "
            "8-cut, 11-back, suit lock and more."
        ),
    ),
    Section(
        key="learn",
        url_name="tutorials:index",
        title=_("Learn"),
        summary=_("Short lessons with real hands: try each move and see why it works."),
    ),
    Section(
        key="play",
        url_name="play:index",
        title=_("Play"),
        summary=_("Play a game in your browser against computer players."),
    ),
)
