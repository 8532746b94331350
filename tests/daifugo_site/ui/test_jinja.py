"""The Jinja2 fragments (daifugo_site/ui/jinja.py): the same HTML through a Django page's
{% fragment %} tag as through the push, words in the active language, routes in its prefix,
and nothing printed for an undefined value whatever DEBUG says."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import translation

from daifugo_site.ui.jinja import macro, url

VIEW = SimpleNamespace(
    round_no=2, rounds=3, revolution=True, jback=False, number_lock=False, lock_suits=[]
)


@pytest.mark.parametrize(("lang", "words"), [("ja", "3 回戦中の第 2 回戦"), ("zh-hans", "第 2 局")])
def test_a_page_and_a_push_get_the_same_fragment_in_the_language(lang: str, words: str) -> None:
    with translation.override(lang):
        pushed = str(macro("play/table.html", "status")(VIEW))
        page = (
            engines["django"]
            .from_string('{% load fragments %}{% fragment "play/table.html" "status" view %}')
            .render({"view": VIEW})
        )
    assert page == pushed
    assert words in pushed
    assert "Round" not in pushed and "Revolution" not in pushed


def test_routes_carry_the_active_languages_prefix() -> None:
    with translation.override("ja"):
        ja = url("review:hint", "abc")
    with translation.override("zh-hans"):
        zh = url("review:hint", "abc")
    assert ja.startswith("/ja/") and zh.startswith("/zh-hans/")
    assert ja.replace("/ja/", "/zh-hans/", 1) == zh


def test_an_undefined_value_prints_nothing_even_under_debug() -> None:
    # Django's backend asks for DebugUndefined when DEBUG is on (it prints the expression
    # itself); the house rules' choice is read through ``view.owed``, None most of the time.
    from daifugo_site.ui.jinja import environment
    from jinja2 import DebugUndefined

    env = environment(undefined=DebugUndefined, autoescape=True)
    owed = env.from_string("[{{ view.owed.kind }}]")
    assert owed.render(view=SimpleNamespace(owed=None)) == "[]"


def test_a_macro_is_looked_up_once_when_templates_do_not_reload(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = engines["jinja2"].env
    assert not env.auto_reload  # DEBUG is off in tests, as in production
    first = macro("play/table.html", "status")

    def asked(*args: object, **kwargs: object) -> None:
        raise AssertionError("the environment was asked again")

    monkeypatch.setattr(env, "get_template", asked)
    assert macro("play/table.html", "status") is first
    with pytest.raises(AssertionError, match="asked again"):
        macro("play/table.html", "no_such_macro_yet")
