"""Issue 38, item 9: the suit-lock badge lists suits the language's way: 「スペード、ダイヤ」,
not "スペード, ダイヤ" (an ASCII comma), on the table, in lessons, the review and the checker."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from daifugo_site.review import checker, presenter
from daifugo_site.ui.jinja import macro

LOCKED = {"zh-hans": "锁花色：黑桃、方块", "ja": "縛り：スペード、ダイヤ"}


@pytest.mark.parametrize("lang", LOCKED)
@pytest.mark.parametrize("template", ["play/table.html status", "tutorials/_table.html"])
def test_the_lock_badge_uses_the_language_s_list_separator(lang: str, template: str) -> None:
    view = SimpleNamespace(
        round_no=1, rounds=1, revolution=False, jback=False, number_lock=False,
        lock_suits=["__S__", "__D__"], phase="play", seats=[], field_codes=[], hand_codes=[],
    )  # fmt: skip
    with translation.override(lang):
        from daifugo_site.ui.labels import suit_labels

        view.lock_suits = suit_labels(0b101)
        if " " in template:  # a Jinja2 fragment of the table (daifugo_site/ui/jinja.py)
            name, fragment = template.split()
            html = str(macro(name, fragment)(view))
        else:
            html = render_to_string(template, {"view": view, "table": view})
    assert LOCKED[lang] in html, html[:600]


@pytest.mark.parametrize("lang", LOCKED)
def test_review_and_checker_list_locked_suits_the_same_way(lang: str) -> None:
    import inspect

    # Both build the badge from one helper: the sentence is the table's.
    for module in (presenter, checker):
        source = inspect.getsource(module)
        assert '", ".join(suit_labels' not in source, module.__name__
    with translation.override(lang):
        from daifugo_site.ui.labels import suits_text

        assert suits_text(0b101) == LOCKED[lang].split("：", 1)[1]
