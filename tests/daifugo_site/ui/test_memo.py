"""{% memo %}: a memoised block renders exactly what the block renders without it."""

from __future__ import annotations

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import override_settings
from django.utils import translation

from daifugo_site.play import computers, rendering, services
from daifugo_site.play.models import Game
from daifugo_site.play.presenter import table_view
from daifugo_site.ui.templatetags import memo
from rules_engine import Action, Match, RuleSet

pytestmark = pytest.mark.django_db


def _states(seed: int, players: int) -> list[tuple[Game, Match]]:
    """Every version of a whole match (the human seat played by a beginner too), as (row,
    match) pairs."""
    game = services.create_game(
        owner="t",
        rules=RuleSet.preset("standard"),
        players=players,
        rounds=3,
        levels=["beginner"] * (players - 1),
        delay_ms=0,
        seed=seed,
    )
    match = services.match_of(game)
    states = [(game, match)]
    while not match.over:
        if match.round.over:
            action = Action.next_round()
        else:
            r = match.round
            seats = [s for s in range(players) if r.owed[s]] or [r.to_act]
            action = computers.computer_action(game, match, seats[0])
        out = match.apply(action)
        assert isinstance(out, Match), out
        match = out
        game = Game(**{f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields})
        game.actions = [*game.actions, action.to_json()]
        game.version += 1
        states.append((game, match))
    return states


@pytest.mark.parametrize(("seed", "players", "lang"), [(3, 4, "zh-hans"), (8, 5, "ja")])
def test_every_push_of_a_match_is_the_same_with_and_without_the_memo(seed, players, lang):
    states = _states(seed, players)
    assert len(states) > 50
    outputs = {}
    for size in (0, 4096):
        memo.clear()
        with override_settings(UI_MEMO_SIZE=size), translation.override(lang):
            sent = None
            pushes = []
            for game, match in states:
                html, sent = rendering._render(table_view(game, match, is_owner=True), sent)
                pushes.append(html)
            outputs[size] = pushes
    assert outputs[0] == outputs[4096]
    assert any('id="seat-' in push for push in outputs[0][1:])


def test_the_key_and_the_language_select_the_block():
    memo.clear()
    t = Template(
        '{% load memo i18n %}{% memo "t-lang" n %}{{ n }}:{% translate "Pass" %}{% endmemo %}'
    )
    with translation.override("ja"):
        ja = t.render(Context({"n": 1}))
        assert t.render(Context({"n": 2})) == ja.replace("1:", "2:")
    with translation.override("zh-hans"):
        zh = t.render(Context({"n": 1}))
    assert ja != zh and ja.startswith("1:") and zh.startswith("1:")


def test_the_memo_is_bounded():
    memo.clear()
    t = Template('{% load memo %}{% memo "t-bound" n %}{{ n }}{% endmemo %}')
    with override_settings(UI_MEMO_SIZE=10):
        for n in range(100):
            assert t.render(Context({"n": n})) == str(n)
    assert len(memo._MEMO) == 10


def test_unhashable_keys_are_frozen_and_bad_syntax_is_refused():
    memo.clear()
    t = Template('{% load memo %}{% memo "t-list" xs %}{{ xs|length }}{% endmemo %}')
    assert t.render(Context({"xs": [1, 2]})) == "2"
    assert t.render(Context({"xs": [1, 2, 3]})) == "3"
    with pytest.raises(TemplateSyntaxError):
        Template("{% load memo %}{% memo seat %}x{% endmemo %}")
    with pytest.raises(TypeError):
        Template('{% load memo %}{% memo "t-obj" o %}x{% endmemo %}').render(
            Context({"o": object.__new__(type("Unhashable", (), {"__hash__": None}))})
        )
