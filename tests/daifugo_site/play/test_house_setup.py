"""Issue 40, the set-up: the ``house`` preset and the six house-rule switches in practice,
rooms and hotseat; the one-on-one table (the rated game's) stays standard."""

from __future__ import annotations

import pytest
from django.test import Client

from daifugo_site.play.models import Game
from rules_engine import RuleSet
from tests.daifugo_site.play.test_views import FORM

pytestmark = pytest.mark.django_db

SWITCHES = ("seven_pass", "ten_discard", "twelve_bomber", "five_skip", "nine_reverse", "sandstorm")


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_the_set_up_page_offers_the_house_preset_and_every_switch(
    client: Client, content: None, lang: str
) -> None:
    html = client.get(f"/{lang}/play/").content.decode()
    assert '<option value="house">' in html
    for name in SWITCHES:
        block = html[html.index(f'data-option="{name}"') :]
        block = block[: block.index("</li>")]
        # Labelled in words, never by the option's code name.
        label = block[block.index("<label") : block.index("</label>")]
        assert name not in label.split(">", 1)[1], (name, label)
    for value in ("groups", "any"):
        assert f'<option value="{value}">' in html


def test_the_house_preset_starts_a_game_with_its_rules(client: Client, content: None) -> None:
    response = client.post("/ja/play/", {**FORM, "preset": "house"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.rules == {"preset": "house"}
    assert RuleSet.from_json(game.rules).seven_pass == "groups"


def test_each_switch_is_stored_as_an_override(client: Client, content: None) -> None:
    data = {
        **FORM,
        "opt_seven_pass": "any",
        "opt_ten_discard": "groups",
        "opt_twelve_bomber": "groups",
        "opt_five_skip": "any",
        "opt_nine_reverse": "groups",
        "opt_sandstorm": "on",
    }
    assert client.post("/zh-hans/play/", data).status_code == 302
    rules = RuleSet.from_json(Game.objects.get().rules)
    assert (rules.seven_pass, rules.ten_discard, rules.twelve_bomber) == ("any", "groups", "groups")
    assert (rules.five_skip, rules.nine_reverse, rules.sandstorm) == ("any", "groups", True)


@pytest.mark.parametrize(
    ("lang", "data", "message"),
    [
        # An unknown value: the switch named by its label (the rules pages' word), then
        # the refusal in the page's language (checked below).
        ("zh-hans", {"opt_seven_pass": "sometimes"}, "七传"),
        ("ja", {"opt_sandstorm": "maybe"}, "砂嵐"),
        # House rules at the one-on-one table (the rated game's rules).
        ("zh-hans", {"table": "1v1", "opt_ten_discard": "groups"}, "一对一不使用地方规则。"),
        ("ja", {"table": "1v1", "opt_sandstorm": "on"}, "1 対 1 はローカルルールなしで遊びます。"),
        # The house preset at the one-on-one table.
        (
            "ja",
            {"table": "1v1", "preset": "house"},
            "1 対 1 は「スタンダード」プリセットでのみ遊べます。",
        ),
    ],
)
def test_bad_house_set_up_is_refused_in_words_and_creates_nothing(
    client: Client, content: None, lang: str, data: dict[str, str], message: str
) -> None:
    response = client.post(f"/{lang}/play/", {**FORM, **data})
    assert response.status_code == 400
    errors = response.content.decode()
    errors = errors[errors.index('data-testid="form-errors"') :]
    errors = errors[: errors.index("</div>")]
    # The switch's name (its label, whichever words the rules pages give it) and the
    # refusal, in the page's language.
    assert message in errors
    if any(key.startswith("opt_") for key in data) and "table" not in data:
        assert {"zh-hans": "请从给出的选项中选择。", "ja": "表示された値から選んでください。"}[
            lang
        ] in errors
    assert not Game.objects.exists()


def test_the_rated_game_is_standard_whatever_is_posted() -> None:
    """The rated 1v1 takes no set-up at all: its rules are fixed, without house rules."""
    from daifugo_site.rated.services import rated_rules

    assert not rated_rules().has_house_rules
    assert rated_rules().preset_name == "standard"


ROOM = {
    **FORM,
    "speed": "300",
    "name": "Aki",
    "drop_timeout": "30",
    "clock": "0",
    "standin_level": "intermediate",
}


@pytest.mark.parametrize("mode", ["link", "hotseat"])
def test_a_room_and_a_hotseat_table_take_the_house_rules(
    client: Client, content: None, mode: str
) -> None:
    from daifugo_site.play import services
    from daifugo_site.rooms.models import Room
    from daifugo_site.rooms.views import room_rules

    data = {**ROOM, "mode": mode, "humans": "2", "preset": "house", "opt_sandstorm": "on"}
    response = client.post("/ja/play/room/new/", data)
    assert response.status_code == 302, response.content.decode()[:300]
    room = Room.objects.get(creator=client.session[services.PLAYER_TOKEN_KEY])
    assert room.rules == {"preset": "house", "sandstorm": True}
    from django.utils import translation

    with translation.override("ja"):
        lines = dict(room_rules(room))
    assert "ハウスルール" in lines.values()
    assert any("砂嵐" in label for label in lines)


def test_a_room_refuses_a_bad_house_switch_in_words(client: Client, content: None) -> None:
    from daifugo_site.rooms.models import Room

    data = {**ROOM, "mode": "link", "preset": "house", "opt_five_skip": "always"}
    response = client.post("/zh-hans/play/room/new/", data)
    assert response.status_code == 400
    assert "请从给出的选项中选择。" in response.content.decode()
    assert not Room.objects.exists() and not Game.objects.exists()
