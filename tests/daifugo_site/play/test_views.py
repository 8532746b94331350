"""The set-up form and the game page over HTTP."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from daifugo_site.play import services
from daifugo_site.play.models import Game
from rules_engine import Match, RuleSet, card_codes

pytestmark = pytest.mark.django_db

FORM = {
    "table": "4",
    "preset": "standard",
    "rounds": "3",
    "speed": "700",
    "level_1": "beginner",
    "level_2": "intermediate",
    "level_3": "advanced",
}


@pytest.mark.parametrize(
    ("lang", "heading"), [("zh-hans", "和电脑对战"), ("ja", "コンピューターと対戦")]
)
def test_the_set_up_form_explains_every_option_with_a_link(
    client: Client, content: None, lang: str, heading: str
) -> None:
    response = client.get(f"/{lang}/play/")
    assert response.status_code == 200
    html = response.content.decode()
    assert heading in html
    for name in ("eight_cut", "jback", "suit_lock", "spade3_return", "pass_until_clear"):
        block = html[html.index(f'data-option="{name}"') :]
        block = block[: block.index("</li>")]
        assert 'class="option__description"' in block
        assert f"/{lang}/rules/" in block, f"{name} links to its rules section"


def test_a_lesson_can_preselect_its_preset(client: Client, content: None) -> None:
    html = client.get("/ja/play/?preset=party").content.decode()
    assert '<option value="party" selected>' in html
    html = client.get("/ja/play/?preset=nonsense").content.decode()
    assert '<option value="standard" selected>' in html


def test_starting_a_game_stores_rules_seats_and_redirects(client: Client, content: None) -> None:
    response = client.post("/zh-hans/play/", {**FORM, "opt_eight_cut": "any"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == f"/zh-hans/play/{game.id}/"
    assert game.rules == {"preset": "standard", "eight_cut": "any"}
    assert [s.get("level") for s in game.seats] == [None, "beginner", "intermediate", "advanced"]
    assert game.rounds == 3 and game.players == 4 and game.actions == []
    assert game.owner == client.session[services.PLAYER_TOKEN_KEY]


def test_the_one_on_one_table_deals_thirteen_cards_and_plays_one_round(
    client: Client, content: None
) -> None:
    client.post("/ja/play/", {**FORM, "table": "1v1"})
    game = Game.objects.get()
    assert (game.players, game.rounds) == (2, 1)
    assert RuleSet.from_json(game.rules).hand_size == 13


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"table": "3", "preset": "standard"}, "“标准”预设适用于 4 人的牌桌。"),
        ({"table": "6", "preset": "party"}, "“派对”预设适用于 3、4 人的牌桌。"),
        ({"table": "1v1", "preset": "party"}, "一对一只能使用“标准”预设。"),
    ],
)
def test_a_table_the_preset_is_not_for_is_refused_clearly(
    client: Client, content: None, data: dict[str, str], message: str
) -> None:
    response = client.post("/zh-hans/play/", {**FORM, **data})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_the_owner_sees_the_hand_and_a_viewer_sees_no_card_of_it(content: None) -> None:
    owner = Client()
    owner.post("/zh-hans/play/", FORM)
    game = Game.objects.get()
    hand = card_codes(Match.from_record(game.record()).round.hands[0])
    page = owner.get(game.get_absolute_url()).content.decode()
    hand_html = page[page.index('id="hand"') :]
    assert (
        re.findall(r'data-card="([A-Z0-9]{2})"', hand_html[: hand_html.index("</section>")]) == hand
    )
    for hook in ("hand", "field", "log", "seats", "exchange"):
        assert f'data-testid="{hook}"' in page
    viewer_page = Client().get(game.get_absolute_url()).content.decode()
    assert "data-card" not in viewer_page
    assert "你正在旁观这局游戏" in viewer_page
    # The human seat is not "you" on a viewer's page.
    seats = viewer_page[viewer_page.index('data-testid="seats"') :]
    assert '<span class="seat__name">玩家</span>' in seats
    assert '<span class="seat__name">你</span>' not in seats


def test_unknown_game_is_404(client: Client) -> None:
    assert client.get("/ja/play/doesnotexist/").status_code == 404


def test_new_game_with_these_rules(client: Client, content: None) -> None:
    client.post("/zh-hans/play/", {**FORM, "opt_jback": "groups"})
    first = Game.objects.get()
    response = client.post(f"/zh-hans/play/{first.id}/again/")
    second = Game.objects.exclude(pk=first.id).get()
    assert response["Location"] == second.get_absolute_url()
    assert (second.rules, second.seats, second.rounds) == (first.rules, first.seats, first.rounds)
    assert second.seed != first.seed
    assert Client().post(f"/zh-hans/play/{first.id}/again/").status_code == 403


def test_the_set_up_page_tells_which_tables_each_preset_is_played_at(
    client: Client, content: None
) -> None:
    """Issue 38, item 7: the page's script offers only these (the server still refuses)."""
    import html as html_lib
    import json

    page = client.get("/ja/play/").content.decode()
    found = re.search(r'data-preset-values="([^"]*)"', page)
    assert found
    values = json.loads(html_lib.unescape(found.group(1)))
    tables = {name: values[name]["tables"].split() for name in values}
    assert tables == {
        "standard": ["4", "1v1"],
        "party": ["4", "3"],
        "classic": ["4", "5", "6"],
        "basic": ["4", "3", "5", "6"],
        "house": ["4", "3", "5", "6"],
    }
    from daifugo_site.play.forms import NewGameForm

    for name, allowed in tables.items():
        for table in ("4", "3", "5", "6", "1v1"):
            form = NewGameForm({**FORM, "table": table, "preset": name})
            assert form.is_valid() == (table in allowed), (name, table)
