"""The rules reference pages: index, one section, presets table, FAQ, glossary.

Each page is a handful of queries (tests/daifugo_site/pages/test_rules_pages.py counts them):
rendered HTML is stored on the rows, option value labels come prefetched with the options
(``RuleOption.objects``), and related sections are joined, never fetched one by one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from rules_engine import PRESET_NAMES, PRESET_PLAYERS, RuleSet
from rules_engine.rules import PARTY_FORBIDDEN_FINISH

from .markup import ensure_current
from .models import OPTION_NAMES, FAQEntry, GlossaryTerm, RuleOption, RuleSection
from .option_values import format_players, format_value
from .translation import language_fields

# Markdown sources are never shown: leave them in the database.
SOURCE_FIELDS = tuple(name for name, _language in language_fields("body")) + ("body",)

#: The presets the rules pages compare: the site's presets, and ``house`` (RULES.md section 8)
#: while the engine still lists it apart from them.
TABLE_PRESETS: tuple[str, ...] = (*PRESET_NAMES, *(() if "house" in PRESET_NAMES else ("house",)))
PRESETS: dict[str, RuleSet] = {name: RuleSet.preset(name) for name in TABLE_PRESETS}


@dataclass
class OptionRow:
    """One option across the four presets, every value read from ``RuleSet.preset``."""

    option: RuleOption | None
    name: str
    cells: list[dict[str, Any]] = field(default_factory=list)
    differs: bool = False


def option_rows(
    options: Iterable[RuleOption], names: Iterable[str] = OPTION_NAMES
) -> list[OptionRow]:
    by_name = {option.name: option for option in options}
    rows = []
    for name in names:
        option = by_name.get(name)
        labels = option.value_labels() if option is not None else {}
        values = [getattr(PRESETS[preset], name) for preset in TABLE_PRESETS]
        cells = [
            {"preset": preset, "value": value, "text": format_value(value, labels)}
            for preset, value in zip(TABLE_PRESETS, values, strict=True)
        ]
        rows.append(OptionRow(option, name, cells, differs=len(set(map(repr, values))) > 1))
    return rows


def _group(sections: Iterable[RuleSection]) -> list[dict[str, Any]]:
    groups: dict[str, list[RuleSection]] = {value: [] for value in RuleSection.Group.values}
    for section in sections:
        groups.setdefault(section.group, []).append(section)
    return [
        {"key": key, "label": RuleSection.Group(key).label, "sections": items}
        for key, items in groups.items()
        if items
    ]


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    sections = list(RuleSection.objects.defer(*SOURCE_FIELDS))
    ensure_current(sections, "body", "body_html")
    options = list(RuleOption.objects.all())
    by_section: dict[int, list[RuleOption]] = {}
    for option in options:
        by_section.setdefault(option.section_id, []).append(option)
    for section in sections:
        section.option_rows = option_rows(
            by_section.get(section.pk, []), [n for n in section.options if n in OPTION_NAMES]
        )
    return render(
        request,
        "pages/rules/index.html",
        {"rule_sections": sections, "groups": _group(sections), "presets": TABLE_PRESETS},
    )


@require_safe
def section(request: HttpRequest, slug: str) -> HttpResponse:
    sections = list(RuleSection.objects.defer(*SOURCE_FIELDS))
    current = next((s for s in sections if s.slug == slug), None)
    if current is None:
        current = get_object_or_404(RuleSection, slug=slug)  # 404 with the usual page
    ensure_current([current], "body", "body_html")
    position = sections.index(current)
    previous = sections[position - 1] if position > 0 else None
    following = sections[position + 1] if position + 1 < len(sections) else None
    options = RuleOption.objects.filter(section=current)
    current.option_rows = option_rows(options, [n for n in current.options if n in OPTION_NAMES])
    terms = GlossaryTerm.objects.filter(section=current)
    return render(
        request,
        "pages/rules/section.html",
        {
            "section": current,
            "previous": previous,
            "next": following,
            "terms": terms,
            "presets": TABLE_PRESETS,
            "groups": _group(sections),
        },
    )


@require_safe
def presets(request: HttpRequest) -> HttpResponse:
    options = list(RuleOption.objects.select_related("section"))
    labels = next((o.value_labels() for o in options if o.name == "forbidden_finish"), {})
    party_forbidden = format_value(PARTY_FORBIDDEN_FINISH, labels)
    return render(
        request,
        "pages/rules/presets.html",
        {
            "presets": TABLE_PRESETS,
            "players": [format_players(PRESET_PLAYERS[name]) for name in TABLE_PRESETS],
            "rows": option_rows(options),
            "party_forbidden": party_forbidden,
        },
    )


@require_safe
def faq(request: HttpRequest) -> HttpResponse:
    entries = list(FAQEntry.objects.defer(*(n for n, _l in language_fields("answer")), "answer"))
    ensure_current(entries, "answer", "answer_html")
    categories: dict[str, list[FAQEntry]] = {value: [] for value in FAQEntry.Category.values}
    for entry in entries:
        categories.setdefault(entry.category, []).append(entry)
    grouped = [
        {"key": key, "label": FAQEntry.Category(key).label, "entries": items}
        for key, items in categories.items()
        if items
    ]
    return render(request, "pages/rules/faq.html", {"categories": grouped})


@require_safe
def glossary(request: HttpRequest) -> HttpResponse:
    terms = GlossaryTerm.objects.select_related("section").defer(
        *(f"section__{name}" for name in SOURCE_FIELDS),
        *(f"section__{name}" for name, _l in language_fields("body_html")),
        "section__body_html",
    )
    return render(request, "pages/rules/glossary.html", {"terms": terms})
