"""Words bound to the push's language (daifugo_site/ui/language.py): the same answers as
Django's translation functions, without asking Django's active language per word."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.safestring import SafeData, mark_safe

from daifugo_site.play import rendering
from daifugo_site.play.presenter import table_view
from daifugo_site.ui import language

from ..play.test_push_parts import _states

LANGS = ("ja", "zh-hans")
MESSAGES = [
    "Pass",
    "Your hand",
    "Computer %(n)d",
    "a sentence no catalogue has",
    "",
    "line one\r\nline two",
    mark_safe("Pass"),
]
CONTEXTS = [
    ("card suit", "Spades"),
    ("card rank", "Queen"),
    ("title", "Daifugō"),
    ("computer level", "Advanced"),
    ("no such context", "Pass"),
    ("card", mark_safe("Joker")),
]


def _words(words: Any) -> tuple[list[str], list[str], list[str], str | None]:
    """Every test word through ``words``: Django's ``translation`` module or ours (the same
    function names)."""
    return (
        [words.gettext(m) for m in MESSAGES],
        [words.pgettext(c, m) for c, m in CONTEXTS],
        [words.ngettext("%(n)s card", "%(n)s cards", n) for n in (0, 1, 2, 13)],
        words.get_language(),
    )


@pytest.mark.parametrize("lang", LANGS)
def test_bound_words_are_djangos_words(lang: str) -> None:
    with translation.override(lang):
        expected = _words(translation)
    with language.rendering_in(lang):
        got = _words(language)
        lazy = (
            str(language.pgettext_lazy("card suit", "Hearts")),
            str(language.gettext_lazy("Pass")),
        )
        django_lazy = (translation.pgettext("card suit", "Hearts"), translation.gettext("Pass"))
    assert got == expected
    assert lazy == django_lazy
    # Translated, not the English source, and safe strings stay safe.
    assert got[0][0] != "Pass" and got[1][0] != "Spades"
    assert isinstance(got[0][-1], SafeData) and isinstance(got[1][-1], SafeData)


def test_the_words_are_read_from_the_binding_not_from_django_inside_the_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with translation.override("ja"):
        expected = translation.gettext("Pass"), translation.pgettext("card suit", "Spades")
    with language.rendering_in("ja"):

        def asked(*args: object) -> str:
            raise AssertionError(f"asked Django for {args}")

        monkeypatch.setattr(translation, "gettext", asked)
        monkeypatch.setattr(translation, "pgettext", asked)
        monkeypatch.setattr(translation, "get_language", asked)
        assert (language.gettext("Pass"), language.pgettext("card suit", "Spades")) == expected
        assert language.get_language() == "ja"
        monkeypatch.undo()


def test_outside_a_block_the_words_follow_djangos_active_language() -> None:
    with language.rendering_in("ja"):
        pass
    with translation.override("zh-hans"):
        assert language.gettext("Pass") == translation.gettext("Pass")
        assert language.get_language() == "zh-hans"
    with pytest.raises(RuntimeError), language.rendering_in("zh-hans"):
        raise RuntimeError
    with translation.override("ja"):
        # The failed block's binding is gone with it.
        assert language.get_language() == "ja"
        assert language.gettext("Pass") == translation.gettext("Pass")


@pytest.mark.django_db
@pytest.mark.parametrize(("seed", "players", "lang"), [(5, 4, "ja"), (9, 5, "zh-hans")])
def test_every_push_of_a_match_is_the_same_bound_or_through_django(
    seed: int, players: int, lang: str
) -> None:
    sent_a = sent_b = None
    pushes = 0
    for game, match in _states(seed, players):
        with translation.override(lang):
            html_a, sent_a = rendering._render(table_view(game, match, is_owner=True), sent_a)
        with language.rendering_in(lang):
            html_b, sent_b = rendering._render(table_view(game, match, is_owner=True), sent_b)
        assert html_b == html_a
        assert sent_b == sent_a
        pushes += 1
    assert pushes > 100
