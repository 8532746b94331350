"""A house rule's choice on a phone (issue 40's house rules, lived in): at 390×844 and
844×390 with touch, when the person owes a gift (7渡し), a discard (10捨て) or a naming
(12ボンバー), the prompt, its button and the fanned hand are all in view and uncovered, so
the choice is made by tapping, as a person makes it.

Found walking a house-rules match on a phone: the prompt sat in the bottom bar, which grew
over the fan, and the cards to give or discard could not be seen or tapped.

Each game is brought, on the server, to the moment the person owes the choice: seat 0
plays a 7, a 10 or a Q as soon as it can (the site's beginners play the other seats),
found by trying seeds; 12ボンバー, off in the preset, switched on for the naming."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    FIRST_FRAME,
    WHOLE_IN_VIEW,
    DaphneServer,
    page_problems,
    phone_page,
)
from tests.browser.test_phone_table import VISIBLE_POINT

pytestmark = pytest.mark.browser

#: The rank seat 0 plays to owe each kind of choice.
RANKS = {"give": "7", "discard": "T", "name": "Q"}

#: Run in the server's shell: the first seed under which seat 0, playing RANK as soon as it
#: can, owes the choice; the game is stored up to there and its id printed.
BRING = """
from daifugo_site.play import services, thinking
from daifugo_site.play.models import Game, hash_resume_token
from rules_engine import Action, Match, RuleSet, card_codes
from rules_engine.ai import Budget
from rules_engine.state import CHOICE_KINDS

def actions_to_choice(seed):
    m = Match.new(RuleSet.preset('house', **OPTIONS), 4, 3, seed)
    done = []
    while not m.round.over:
        r = m.round
        owed = r.owed_choice()
        if owed is not None and owed[0] == 0:
            return done if CHOICE_KINDS[owed[1]] == KIND else None
        seat = owed[0] if owed is not None else r.to_act
        obs = m.observe(seat)
        if seat != 0:
            action = thinking.think(obs, 'beginner', f'{seed}:{len(m.log)}:{seat}', Budget())
        else:
            plays = [mv for mv in obs.legal if not mv.is_pass]
            mine = [mv for mv in plays if any(c[1] == RANK for c in card_codes(mv.cards))]
            move = (mine or plays or [None])[0]
            if move is None:
                action = Action.pass_(0)
            else:
                form = move.form_name if move.ambiguous else None
                action = Action('play', 0, ' '.join(card_codes(move.cards)), form)
        done.append(action)
        m = m.apply(action)
    return None

for seed in range(1, 400):
    found = actions_to_choice(seed)
    if found:
        break
g = services.create_game(owner='seeded', rules=RuleSet.preset('house', **OPTIONS), players=4,
                         rounds=3, levels=['beginner'] * 3, delay_ms=300, seed=seed)
for action in found:
    out = services.apply_action(g.id, action, by_computer=action.seat != 0,
                                expected_version=Game.objects.get(pk=g.id).version)
    assert out.accepted, (action, out)
Game.objects.filter(pk=g.id).update(resume_hash=hash_resume_token(TOKEN))
print(g.id)
"""


def bring_to_choice(server: DaphneServer, kind: str) -> tuple[str, str]:
    token = f"phone-choice-{kind}"
    # 12ボンバー is off in the house preset: a table that plays it switches it on.
    options = {"twelve_bomber": "groups"} if kind == "name" else {}
    script = f"KIND = {kind!r}; RANK = {RANKS[kind]!r}; TOKEN = {token!r}; OPTIONS = {options!r}\n"
    script += BRING
    out = server.manage("shell", "-c", script)
    return out.stdout.strip().splitlines()[-1], token


#: Portrait in both languages; landscape (the bar and the fan on the right) in one: the
#: layout does not depend on the language.
SCREENS = [
    pytest.param("ja", "ja-JP", 390, 844, id="ja-390x844"),
    pytest.param("zh-hans", "zh-CN", 390, 844, id="zh-390x844"),
    pytest.param("ja", "ja-JP", 844, 390, id="ja-844x390"),
]


@pytest.mark.parametrize(("lang", "locale", "width", "height"), SCREENS)
@pytest.mark.parametrize("kind", ["give", "discard", "name"])
def test_a_choice_is_made_by_tapping_on_a_phone(
    daphne_server: DaphneServer,
    new_page: Any,
    kind: str,
    lang: str,
    locale: str,
    width: int,
    height: int,
) -> None:
    game_id, token = bring_to_choice(daphne_server, kind)
    page = phone_page(new_page, locale, width, height)
    page.goto(f"{daphne_server.url}/{lang}/play/{game_id}/resume/{token}/")
    page.locator('[data-action="resume"]').tap()
    page.wait_for_function(FIRST_FRAME)
    choice = page.locator('[data-testid="choice"]')
    expect(choice).to_have_attribute("data-kind", kind)
    count = int(choice.get_attribute("data-count") or "0")
    assert count >= 1

    # The prompt, the choice's button and the whole fan: in view, uncovered.
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(400)  # the fan's cards settle
    assert page.locator("#choice-prompt").evaluate(WHOLE_IN_VIEW), "the prompt is not in view"
    button = "name" if kind == "name" else "choose"
    control = page.locator(f'[data-action="{button}"]')
    assert control.evaluate(WHOLE_IN_VIEW), f"{button} is not in view"
    cards = page.locator("[data-hand-fan] [data-fan-card]")
    assert cards.count() >= count
    for i in range(cards.count()):
        code = cards.nth(i).get_attribute("data-fan-card")
        assert cards.nth(i).evaluate(VISIBLE_POINT) is not None, f"{code} is covered"
    # Play and Pass are not offered while a choice is owed.
    expect(page.locator('[data-action="play"]')).not_to_be_visible()

    if kind == "name":
        ranks = page.locator("[data-name-form] button[data-rank]")
        for i in range(ranks.count()):  # every rank can be named: none cut off or covered
            rank = ranks.nth(i)
            assert rank.evaluate(WHOLE_IN_VIEW), f"rank {rank.inner_text()} not whole"
        for i in range(count):
            ranks.nth(i).tap()
            expect(ranks.nth(i)).to_have_attribute("aria-pressed", "true")
    else:
        for i in range(count):
            point = cards.nth(i).evaluate(VISIBLE_POINT)
            page.touchscreen.tap(point["x"], point["y"])
            expect(cards.nth(i)).to_have_class(re.compile(r"\bis-selected\b"), timeout=3_000)
    control.tap()
    expect(page.locator('[data-testid="choice"]')).to_have_count(0)
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    assert page_problems(page) == []
