"""A fragment rendered once per distinct key: ``{% load memo %}``.

Usage::

    {% memo "seat" s place %} ...markup reading only s and place... {% endmemo %}

The first argument names the block (unique per block in the project); the others are its
key (none for a block that depends only on the language). The body's HTML is kept in a
bounded per-process LRU under (name, active language, key) and reused whenever the same
key comes again.

Why: the play page's push re-renders the seats, the hand and the players' table on every
move, and Django's template engine spends most of a push walking the same loop bodies
for seats and cards that did not change (measured with the play bench: rendering was 60%
of a web worker's CPU). A seat that did not move, a card whose state did not change, is
now a dictionary lookup.

The contract: the body's output must be a function of the key and the language only. Name
every value the body reads in the key (whole view objects are fine: dataclasses, lists and
sets are frozen into tuples for the key). tests/daifugo_site/ui/test_memo.py renders the
play page's fragments with the memo on and off over random games and compares them.
``UI_MEMO_SIZE = 0`` turns it off.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from django import template
from django.conf import settings
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from daifugo_site.bounded import Bounded

register = template.Library()

#: Seconds a block may go unused before it is dropped.
MEMO_IDLE_S = 300.0

# Bounded in entries (UI_MEMO_SIZE) and idle time (daifugo_site/bounded.py): the blocks of
# the games in play stay, those of ended games go.
_MEMO: Bounded[tuple[Any, ...], SafeString] = Bounded(4096, idle_s=MEMO_IDLE_S)
_LOCK = threading.Lock()


def _frozen(value: Any) -> Any:
    """A hashable stand-in for ``value`` that changes whenever what it shows may change."""
    try:
        hash(value)  # the common case: a string, a number, a frozen dataclass
        return value
    except TypeError:
        pass
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__qualname__, *(_frozen(v) for v in vars(value).values()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    raise TypeError(f"{{% memo %}} cannot key on a {type(value).__name__}")


def clear() -> None:
    with _LOCK:
        _MEMO.clear()


class MemoNode(template.Node):
    def __init__(self, name: str, keys: list[FilterExpression], nodelist: NodeList) -> None:
        self.name = name
        self.keys = keys
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        size: int = getattr(settings, "UI_MEMO_SIZE", 4096)
        if size <= 0:
            return str(self.nodelist.render(context))
        key = (
            self.name,
            get_language(),
            tuple(_frozen(k.resolve(context)) for k in self.keys),
        )
        with _LOCK:
            found = _MEMO.get(key)
            if found is not None:
                return found
        html = mark_safe(self.nodelist.render(context))
        with _LOCK:
            _MEMO.size = size
            _MEMO[key] = html
        return html


@register.tag
def memo(parser: Parser, token: Token) -> MemoNode:
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(
            "{% memo %} takes a quoted block name, then its keys (none for a block that "
            'depends only on the language): {% memo "seat" s place %}'
        )
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(bits[1][1:-1], [parser.compile_filter(b) for b in bits[2:]], nodelist)
