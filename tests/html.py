"""A tiny HTML reader for assertions: find elements by tag and attributes, read their text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""
    children: list[Element] = field(default_factory=list)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.elements.append(element)
        if self.open:
            self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                break

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element.text += data


def find_all(html: str, tag: str | None = None, **attrs: str) -> list[Element]:
    """Elements with this tag (any if None) whose attributes equal ``attrs``.

    Attribute names use ``_`` for ``-`` (``aria_label`` -> ``aria-label``); a trailing ``_``
    is dropped (``class_``).
    """
    collector = _Collector()
    collector.feed(html)
    wanted = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
    return [
        element
        for element in collector.elements
        if (tag is None or element.tag == tag)
        and all(element.attrs.get(name) == value for name, value in wanted.items())
    ]


def find_one(html: str, tag: str | None = None, **attrs: str) -> Element:
    found = find_all(html, tag, **attrs)
    assert len(found) == 1, f"expected one <{tag}> with {attrs}, found {len(found)}"
    return found[0]
