"""Load the rules reference from ``content/`` into the database, idempotently.

``manage.py load_site_content`` calls it (through ``PagesConfig.load_site_content``). Rows
are matched by slug (options by name, FAQ entries by order): a changed file updates its row,
a new entry is created, and a row whose key left the files is deleted. Running it twice
writes nothing the second time.

Order matters because the pieces refer to each other: sections first (their text, not yet
rendered), then the option descriptions (they point at sections), then the example hands
(whose rules line uses the option labels), then the sections' HTML (which embeds the
examples), then FAQ and glossary.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from django.db import models, transaction

from . import markup
from .models import (
    OPTION_NAMES,
    Example,
    FAQEntry,
    GlossaryTerm,
    RuleOption,
    RuleOptionValue,
    RuleSection,
)
from .translation import LANGUAGES, language_fields

CONTENT_DIR = Path(__file__).resolve().parent / "content"
EXAMPLE_REF = re.compile(r"\[\[\s*example\s*:\s*([^\]\s]+)\s*\]\]")


class ContentError(ValueError):
    """A content file that cannot be loaded as it is."""


def _suffix(language: str) -> str:
    return language.replace("-", "_")


def _translated(entry: dict[str, Any], field: str, where: str) -> dict[str, str]:
    """``{"title_zh_hans": ..., "title_ja": ...}`` from an entry, every language required."""
    values = {}
    for name, _language in language_fields(field):
        value = entry.get(name)
        if not isinstance(value, str) or not value.strip():
            raise ContentError(f"{where}: {name} is missing or empty")
        values[name] = value.strip()
    return values


class _Counter:
    def __init__(self) -> None:
        self.created = 0
        self.updated = 0
        self.deleted = 0

    def summary(self) -> str:
        return f"{self.created} created, {self.updated} updated, {self.deleted} deleted"


def _upsert(
    model: type[models.Model],
    lookup: dict[str, Any],
    values: dict[str, Any],
    counter: _Counter,
    **save_kwargs: Any,
) -> Any:
    """Create or update one row, saving only when a value differs."""
    obj = model._default_manager.filter(**lookup).first()
    if obj is None:
        obj = model(**lookup, **values)
        obj.save(**save_kwargs)
        counter.created += 1
        return obj
    changed = [name for name, value in values.items() if getattr(obj, name) != value]
    if changed:
        for name in changed:
            setattr(obj, name, values[name])
        obj.save(**save_kwargs)
        counter.updated += 1
    return obj


def _delete_missing(
    queryset: models.QuerySet[Any], field: str, keep: set[Any], counter: _Counter
) -> None:
    stale = queryset.exclude(**{f"{field}__in": keep})
    counter.deleted += stale.count()
    stale.delete()


def _read_toml(directory: Path, name: str) -> dict[str, Any]:
    path = directory / name
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ContentError(f"{path}: {error}") from None


def _save_rendered(obj: Any, html_fields: list[str], counter: _Counter) -> None:
    """Save a row whose HTML was just rendered, if that HTML changed."""
    fresh = {name: getattr(obj, name) for name in html_fields}
    stored = type(obj)._default_manager.filter(pk=obj.pk).values(*html_fields).get()
    if stored != fresh:
        obj.save(render=False, update_fields=html_fields)
        counter.updated += 1


@transaction.atomic
def load(directory: Path = CONTENT_DIR) -> str:
    """Load every content file of ``directory``; returns a one-line summary."""
    counter = _Counter()
    sections_data = _read_toml(directory, "sections.toml").get("sections", [])
    options_data = _read_toml(directory, "options.toml").get("options", [])
    examples_data = _read_toml(directory, "examples.toml").get("examples", [])
    faq_data = _read_toml(directory, "faq.toml").get("faq", [])
    terms_data = _read_toml(directory, "glossary.toml").get("terms", [])

    # 1. Sections, text only (the HTML needs the examples, loaded below).
    sections: dict[str, RuleSection] = {}
    for entry in sections_data:
        slug = entry["slug"]
        where = f"sections.toml [{slug}]"
        group = entry.get("group")
        if group not in RuleSection.Group.values:
            raise ContentError(f"{where}: unknown group {group!r}")
        option_names = list(entry.get("options", []))
        unknown = [name for name in option_names if name not in OPTION_NAMES]
        if unknown:
            raise ContentError(f"{where}: unknown options {unknown}")
        values: dict[str, Any] = {"order": int(entry["order"]), "group": group}
        values["options"] = option_names
        for field in ("title", "summary", "body"):
            values |= _translated(entry, field, where)
        sections[slug] = _upsert(RuleSection, {"slug": slug}, values, counter, render=False)

    # 2. One description per rule option, with the labels of its named values.
    option_names_seen: set[str] = set()
    for entry in options_data:
        name = entry["name"]
        where = f"options.toml [{name}]"
        if name not in OPTION_NAMES:
            raise ContentError(f"{where}: not a RuleSet option")
        section = sections.get(entry.get("section", ""))
        if section is None:
            raise ContentError(f"{where}: unknown section {entry.get('section')!r}")
        if name not in section.options:
            raise ContentError(f"{where}: section {section.slug} does not list this option")
        values = {"section": section}
        for field in ("label", "description"):
            values |= _translated(entry, field, where)
        option = _upsert(RuleOption, {"name": name}, values, counter)
        option_names_seen.add(name)
        value_names: set[str] = set()
        for value, labels in entry.get("values", {}).items():
            label_values = {}
            for language in LANGUAGES:
                label = labels.get(_suffix(language), "")
                if not label.strip():
                    raise ContentError(f"{where}: value {value} has no {language} label")
                label_values[f"label_{_suffix(language)}"] = label.strip()
            _upsert(RuleOptionValue, {"option": option, "value": value}, label_values, counter)
            value_names.add(value)
        _delete_missing(
            RuleOptionValue.objects.filter(option=option), "value", value_names, counter
        )
    _delete_missing(RuleOption.objects.all(), "name", option_names_seen, counter)

    # 3. Example hands: the scenario must pass, and the first section embedding it owns it.
    owner: dict[str, RuleSection] = {}
    for section in sorted(sections.values(), key=lambda s: s.order):
        for body_field, _language in language_fields("body"):
            for slug in EXAMPLE_REF.findall(getattr(section, body_field)):
                owner.setdefault(slug, section)
    examples: dict[str, Example] = {}
    for position, entry in enumerate(examples_data, 1):
        slug = entry["slug"]
        where = f"examples.toml [{slug}]"
        scenario_path = directory / entry["scenario"]
        try:
            scenario = json.loads(scenario_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ContentError(f"{where}: {scenario_path}: {error}") from None
        values = {"scenario": scenario, "order": position * 10, "section": owner.get(slug)}
        values |= _translated(entry, "caption", where)
        example = Example(slug=slug, **values)
        try:
            example.clean()
        except Exception as error:
            raise ContentError(f"{where}: {error}") from None
        examples[slug] = _upsert(Example, {"slug": slug}, values, counter)
    _delete_missing(Example.objects.all(), "slug", set(examples), counter)
    missing = set(owner) - set(examples)
    if missing:
        raise ContentError(f"sections embed unknown examples: {sorted(missing)}")

    # 4. The sections' HTML, now that every example exists; then drop vanished sections.
    # The catalogue stamps are saved with the HTML (see markup.ensure_current).
    stamps = [name for name, _language in language_fields(markup.STAMP_FIELD)]
    html_fields = [name for name, _language in language_fields("body_html")] + stamps
    for section in sections.values():
        try:
            markup.render_translated(section, "body", "body_html", examples)
        except markup.MarkupError as error:
            raise ContentError(f"sections.toml [{section.slug}]: {error}") from None
        _save_rendered(section, html_fields, counter)
    _delete_missing(RuleSection.objects.all(), "slug", set(sections), counter)

    # 5. FAQ, keyed by order.
    orders: set[int] = set()
    answer_html_fields = [name for name, _language in language_fields("answer_html")] + stamps
    for entry in faq_data:
        order = int(entry["order"])
        where = f"faq.toml [order {order}]"
        if order in orders:
            raise ContentError(f"{where}: two entries have this order")
        category = entry.get("category")
        if category not in FAQEntry.Category.values:
            raise ContentError(f"{where}: unknown category {category!r}")
        values = {"category": category}
        for field in ("question", "answer"):
            values |= _translated(entry, field, where)
        faq = _upsert(FAQEntry, {"order": order}, values, counter, render=False)
        try:
            markup.render_translated(faq, "answer", "answer_html", examples)
        except markup.MarkupError as error:
            raise ContentError(f"{where}: {error}") from None
        _save_rendered(faq, answer_html_fields, counter)
        orders.add(order)
    _delete_missing(FAQEntry.objects.all(), "order", orders, counter)

    # 6. Glossary.
    slugs: set[str] = set()
    for entry in terms_data:
        slug = entry["slug"]
        where = f"glossary.toml [{slug}]"
        section_slug = entry.get("section")
        section = sections.get(section_slug) if section_slug else None
        if section_slug and section is None:
            raise ContentError(f"{where}: unknown section {section_slug!r}")
        values = {"order": int(entry["order"]), "section": section}
        for field in ("term", "reading", "explanation"):
            values |= _translated(entry, field, where)
        _upsert(GlossaryTerm, {"slug": slug}, values, counter)
        slugs.add(slug)
    _delete_missing(GlossaryTerm.objects.all(), "slug", slugs, counter)

    return (
        f"{len(sections)} rule sections, {len(examples)} examples, "
        f"{len(option_names_seen)} rule options, {len(orders)} FAQ entries, "
        f"{len(slugs)} glossary terms ({counter.summary()})"
    )
