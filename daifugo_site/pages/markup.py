"""Body text: Markdown, sanitised, with two shortcodes for cards and example hands.

- ``[[cards: S7 H7 JK]]`` draws the cards with the site's card component;
- ``[[example: slug]]`` shows an example hand (caption, hands, each play), on its own line.

Authors write Markdown, never HTML: the site's one pipeline (``daifugo_site.ui.markup``,
shared with the lessons) sanitises with a strict allow-list and puts the trusted HTML of
the components back only after sanitising.

Rendering happens when a row is saved or loaded (``render_translated``), once per language
under ``translation.override`` so that card names and labels are in that language. The
rendered HTML contains translated words ("Hands at the start", "Player A plays"), so each
language's HTML is stamped with the version of the catalogue it was rendered with
(``catalogue_version``). A page calls ``ensure_current`` on the rows it shows: a row whose
stamp is not the running process's catalogue is rendered again (and saved) before it is
shown. So HTML rendered before ``compile_translations`` ran (a fresh clone's first
``make``), or with last release's catalogue, never reaches a reader.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from django.template import TemplateSyntaxError
from django.utils import translation
from django.utils.translation import gettext, trans_real

from daifugo_site.ui.markup import SHORTCODE, render_markdown
from daifugo_site.ui.templatetags.cards import cards_html, parse_card

logger = logging.getLogger(__name__)

#: The column (one per language, see translation.py) that records which catalogue the
#: stored HTML of that language was rendered with.
STAMP_FIELD = "html_catalogue"

KINDS = ("cards", "example")


class MarkupError(ValueError):
    """A shortcode that cannot be rendered (unknown card, unknown example)."""


def render_cards(arg: str) -> str:
    codes = arg.split()
    if not codes:
        raise MarkupError("[[cards: ...]] needs at least one card")
    try:
        return str(cards_html(codes))
    except TemplateSyntaxError as error:
        raise MarkupError(str(error)) from None


def render_cards_inline(arg: str) -> str:
    from daifugo_site.ui.templatetags.cards import card_html

    try:
        parts = [card_html(code).strip() for code in arg.split()]
    except TemplateSyntaxError as error:
        raise MarkupError(str(error)) from None
    return f'<span class="cards cards--inline">{"".join(parts)}</span>'


def render_example(slug: str, examples: Mapping[str, Any] | None = None) -> str:
    from django.apps import apps

    from . import example_view

    # By name, not imported: the models render their HTML with this module.
    Example = apps.get_model("pages", "Example")  # noqa: N806
    RuleOption = apps.get_model("pages", "RuleOption")  # noqa: N806

    example = (examples or {}).get(slug)
    if example is None:
        example = Example.objects.filter(slug=slug).first()
    if example is None:
        raise MarkupError(f"no example with the slug {slug!r}")
    options = {option.name: option for option in RuleOption.objects.all()}
    try:
        return example_view.render(example.slug, example.caption, example.scenario, options)
    except example_view.ExampleError as error:
        raise MarkupError(str(error)) from None


def render(source: str, examples: Mapping[str, Any] | None = None) -> str:
    """Markdown ``source`` as safe HTML in the active language (MarkupError on a bad code)."""

    def shortcode(kind: str, arg: str) -> tuple[str, str]:
        if kind == "cards":
            return render_cards(arg), render_cards_inline(arg)
        if kind == "example":
            block = render_example(arg, examples)
            return block, block
        raise MarkupError(f"unknown shortcode [[{kind}: ...]]: use one of {', '.join(KINDS)}")

    return render_markdown(source, shortcode)


def check(source: str) -> str | None:
    """Why ``source`` cannot be rendered, or None. For the admin's validation."""
    for match in SHORTCODE.finditer(source):
        kind, arg = match["kind"], match["arg"]
        if kind not in KINDS:
            return gettext("Unknown shortcode [[%(kind)s: …]].") % {"kind": kind}
        if kind == "cards":
            if not arg.split():
                return gettext("[[cards: …]] needs at least one card.")
            for code in arg.split():
                try:
                    parse_card(code)
                except TemplateSyntaxError:
                    return gettext("Unknown card code “%(code)s”.") % {"code": code}
        else:
            line_start = source.rfind("\n", 0, match.start()) + 1
            line_end = source.find("\n", match.end())
            line = source[line_start : line_end if line_end != -1 else len(source)]
            if line.strip() != match.group(0):
                return gettext("[[example: …]] must stand on a line of its own.")
            try:
                render_example(arg)
            except MarkupError as error:
                return str(error)
    return None


def catalogue_version(language: str) -> str:
    """A short hash of the translations this process uses for ``language``.

    Computed from the catalogue Django actually loaded (project, apps and Django's own,
    fallbacks included), not from files on disk: a process that loaded its catalogues
    before the .mo files existed has a different version from one that loaded them after.
    Memoised on the translation object, which Django keeps for the life of the process
    (and replaces when LOCALE_PATHS changes), so a page pays for it once per language.
    """
    trans: Any = trans_real.translation(language)
    version = getattr(trans, "_daifugo_catalogue_version", None)
    if version is None:
        digest = hashlib.blake2b(digest_size=10)
        layer: Any = trans
        while layer is not None:
            catalog = getattr(layer, "_catalog", None)
            if catalog is not None:
                for key, value in sorted(catalog.items(), key=repr):
                    digest.update(repr((key, value)).encode("utf-8"))
            digest.update(b"\x00")
            layer = getattr(layer, "_fallback", None)
        version = digest.hexdigest()
        trans._daifugo_catalogue_version = version
    return str(version)


def _suffix(language: str) -> str:
    return language.replace("-", "_")


def render_translated(
    obj: Any, source_field: str, html_field: str, examples: Mapping[str, Any] | None = None
) -> None:
    """Set ``<html_field>_<lang>`` from ``<source_field>_<lang>`` for every language,
    and stamp each with the catalogue it was rendered with."""
    from .languages import language_fields

    for (source_name, language), (html_name, _language) in zip(
        language_fields(source_field), language_fields(html_field), strict=True
    ):
        with translation.override(language):
            setattr(obj, html_name, render(getattr(obj, source_name) or "", examples))
            setattr(obj, f"{STAMP_FIELD}_{_suffix(language)}", catalogue_version(language))


def ensure_current(rows: Iterable[Any], source_field: str, html_field: str) -> None:
    """Re-render (and save) the active language's HTML of every row rendered with another
    catalogue than this process's. Nothing to do, and no query, when all stamps match.

    A row that fails to render now (an example since deleted) keeps its HTML and its old
    stamp, and the error is logged: a page never fails because of it.
    """
    language = translation.get_language() or "zh-hans"
    suffix = _suffix(language)
    version = catalogue_version(language)
    stamp_name = f"{STAMP_FIELD}_{suffix}"
    html_name = f"{html_field}_{suffix}"
    for row in rows:
        if getattr(row, stamp_name) == version:
            continue
        try:
            html = render(getattr(row, f"{source_field}_{suffix}") or "")
        except MarkupError:
            logger.exception("cannot re-render %s %s in %s", type(row).__name__, row.pk, language)
            continue
        setattr(row, html_name, html)
        setattr(row, stamp_name, version)
        # Only this language's columns: another worker may be refreshing the other one.
        type(row)._default_manager.filter(pk=row.pk).update(
            **{html_name: html, stamp_name: version}
        )
