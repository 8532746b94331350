"""The one Markdown pipeline of the site: rules pages, FAQ and lessons all go through it.

Pure Python (Markdown + nh3, no Django), checked by mypy --strict. The caller supplies
what its shortcodes draw; everything else an author writes is Markdown, sanitised with one
strict allow-list:

>>> render_markdown("**Hi** <script>alert(1)</script>", lambda kind, arg: None)
'<p><strong>Hi</strong> </p>'
>>> render_markdown('<img src="https://example.com/x.png" onerror="alert(1)">', lambda k, a: None)
'<p></p>'
>>> render_markdown("[x](javascript:alert(1))", lambda kind, arg: None)
'<p><a rel="noopener noreferrer">x</a></p>'

Shortcodes such as ``[[cards: S7 H7]]`` are swapped for placeholders *before* Markdown and
sanitising, and the trusted HTML the caller drew is put back only *after*. Each render
draws a fresh random placeholder prefix that does not occur in the text, so an author can
neither forge a placeholder nor make one collide with another (the old fixed token let a
lesson text containing it pass the checks and then fail with a server error):

>>> render_markdown("[[cards: S3]] and tutorcardsZ0Ztutor", lambda k, a: ("<b>B</b>", "<i>I</i>"))
'<p><i>I</i> and tutorcardsZ0Ztutor</p>'

A shortcode alone in its paragraph is replaced by the caller's block HTML, the paragraph
included; inside a sentence by its inline HTML; inside a tag's attribute (``[t]([[cards:
S3]])``) by nothing, since markup can never go into an attribute:

>>> render_markdown("[[cards: S3]]", lambda k, a: ("<b>B</b>", "<i>I</i>"))
'<b>B</b>'
>>> render_markdown("[t]([[cards: S3]])", lambda k, a: ("<b>B</b>", "<i>I</i>"))
'<p><a href="" rel="noopener noreferrer">t</a></p>'
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

import markdown
import nh3

#: ``[[kind: argument]]`` on one line. Kinds are lower-case words.
SHORTCODE = re.compile(r"\[\[\s*(?P<kind>[a-z]+)\s*:\s*(?P<arg>[^\]\n]*?)\s*\]\]")

#: The strict allow-list: text structure, links and tables; no images, media, frames,
#: forms, styles or event handlers. Headings start at h3 (the page owns h1 and h2).
ALLOWED_TAGS = frozenset({
    "p", "br", "hr", "h3", "h4", "h5", "h6", "strong", "em", "b", "i", "code", "pre",
    "blockquote", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th",
    "td", "a", "sup", "sub", "abbr", "ruby", "rt", "rp",
})  # fmt: skip
ALLOWED_ATTRIBUTES: dict[str, frozenset[str]] = {
    "a": frozenset({"href", "title"}),
    "abbr": frozenset({"title"}),
    "th": frozenset({"align"}),
    "td": frozenset({"align"}),
    "ol": frozenset({"start"}),
}
URL_SCHEMES = frozenset({"http", "https", "mailto"})

#: ``(kind, argument) -> (block HTML, inline HTML)`` for a shortcode it draws, or None to
#: leave the shortcode as plain text. The HTML it returns is trusted: never author text.
Shortcodes = Callable[[str, str], tuple[str, str] | None]

# A tag (attribute values quoted, as nh3 writes them) or anything else: placeholders are
# replaced in text and dropped inside tags.
_TAG = re.compile(r"<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>")


def markdown_html(text: str) -> str:
    """Markdown to (unsanitised) HTML: tables and sane lists, HTML5 output."""
    return markdown.markdown(
        text,
        extensions=["tables", "sane_lists"],
        extension_configs={"tables": {"use_align_attribute": True}},
        output_format="html",
    )


def sanitise(html: str) -> str:
    """Keep only the allow-list; links get ``rel="noopener noreferrer"``."""
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel="noopener noreferrer",
    )


def _prefix(text: str) -> str:
    while True:
        prefix = f"dfgsc{secrets.token_hex(8)}n"
        if prefix not in text:
            return prefix


def render_markdown(source: str, shortcodes: Shortcodes) -> str:
    """``source`` as sanitised HTML with the shortcodes ``shortcodes`` draws put back."""
    prefix = _prefix(source)
    fragments: list[tuple[str, str]] = []

    def stash(match: re.Match[str]) -> str:
        drawn = shortcodes(match["kind"], match["arg"])
        if drawn is None:
            return match.group(0)
        fragments.append(drawn)
        return f"{prefix}{len(fragments) - 1}z"

    html = sanitise(markdown_html(SHORTCODE.sub(stash, source)))
    if not fragments:
        return html.strip()
    token = re.compile(rf"{prefix}(\d+)z")
    block = re.compile(rf"<p>\s*{prefix}(\d+)z\s*</p>")
    html = block.sub(lambda match: fragments[int(match[1])][0], html)

    def text_or_tag(match: re.Match[str]) -> str:
        if match.group(0).startswith("<"):
            return token.sub("", match.group(0))
        return fragments[int(match[1])][1]

    html = re.sub(rf"{_TAG.pattern}|{prefix}(\d+)z", text_or_tag, html)
    return html.strip()
