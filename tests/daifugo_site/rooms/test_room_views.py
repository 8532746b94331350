"""The room pages over HTTP: creating from the play set-up form, the link, taking seats,
starting, and every bad input answered with its sentence and nothing changed."""

from __future__ import annotations

import datetime
import os
import re

import pytest
from django.test import Client
from django.utils import timezone

from daifugo_site.play import computers, services
from daifugo_site.play.models import Game
from daifugo_site.rooms.models import Room, RoomSeat

pytestmark = pytest.mark.django_db

FORM = {
    "table": "4",
    "preset": "standard",
    "rounds": "3",
    "speed": "300",
    "level_1": "beginner",
    "level_2": "intermediate",
    "level_3": "advanced",
    "mode": "link",
    "name": "Aki",
    "drop_timeout": "30",
    "clock": "0",
    "standin_level": "intermediate",
}


def create(client: Client, lang: str = "zh-hans", **extra: str) -> Room:
    response = client.post(f"/{lang}/play/room/new/", {**FORM, **extra})
    assert response.status_code == 302, response.content.decode()[:500]
    return Room.objects.get(creator=client.session[services.PLAYER_TOKEN_KEY])


def seats(room: Room) -> list[tuple[str, str]]:
    return list(RoomSeat.objects.filter(room=room).values_list("kind", "name"))


def test_the_set_up_page_has_the_create_room_button(client: Client) -> None:
    html = client.get("/ja/play/").content.decode()
    assert 'data-action="create-room"' in html and "ルーム" in html


def test_a_room_is_created_with_a_link_and_the_creator_seated(client: Client) -> None:
    room = create(client)
    assert seats(room) == [("human", "Aki"), ("free", ""), ("free", ""), ("free", "")]
    html = client.get(room.get_absolute_url()).content.decode()
    link = re.search(r'data-testid="room-link"[^>]*>([^<]+)<', html)
    assert link and link.group(1).endswith(f"/zh-hans/play/room/{room.token}/")
    assert 'data-testid="room-seats"' in html
    assert html.count('data-action="take-seat"') == 0  # the creator is seated already
    assert 'data-action="start-room"' in html and 'data-action="fill-and-start"' in html


def test_a_visitor_takes_a_free_seat_then_not_another(client: Client) -> None:
    room = create(client)
    friend = Client()
    html = friend.get(room.get_absolute_url()).content.decode()
    assert html.count('data-action="take-seat"') == 3
    assert 'data-action="start-room"' not in html
    response = friend.post(f"/zh-hans/play/room/{room.token}/take/", {"seat": "2", "name": "Bo"})
    assert response.status_code == 302
    assert seats(room)[2] == ("human", "Bo")
    # Two tabs of one person: a second seat is refused.
    response = friend.post(f"/zh-hans/play/room/{room.token}/take/", {"seat": "3", "name": "Bo"})
    assert response.status_code == 409
    assert "你已经在这个房间里有座位了" in response.content.decode()
    assert seats(room)[3] == ("free", "")


def test_a_taken_seat_is_refused(client: Client) -> None:
    room = create(client, lang="ja")
    response = Client().post(f"/ja/play/room/{room.token}/take/", {"seat": "0", "name": "X"})
    assert response.status_code == 409
    assert "その席はほかの人が" in response.content.decode()
    assert seats(room)[0] == ("human", "Aki")


def test_a_full_room_offers_watching_only(client: Client) -> None:
    room = create(client)
    for seat in (1, 2, 3):
        Client().post(f"/zh-hans/play/room/{room.token}/take/", {"seat": str(seat), "name": "P"})
    late = Client()
    response = late.post(f"/zh-hans/play/room/{room.token}/take/", {"seat": "1", "name": "L"})
    assert response.status_code == 409
    assert "所有座位都已经有人了" in response.content.decode()


def test_only_the_creator_starts_and_free_seats_need_the_fill_button(client: Client) -> None:
    room = create(client)
    friend = Client()
    friend.post(f"/zh-hans/play/room/{room.token}/take/", {"seat": "1", "name": "Bo"})
    response = friend.post(f"/zh-hans/play/room/{room.token}/start/", {"fill": "1"})
    assert response.status_code == 403
    response = client.post(f"/zh-hans/play/room/{room.token}/start/")
    assert response.status_code == 409 and Game.objects.count() == 0
    response = client.post(f"/zh-hans/play/room/{room.token}/start/", {"fill": "1"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s["kind"] for s in game.seats] == ["human", "human", "computer", "computer"]
    assert [s.get("level") for s in game.seats[2:]] == ["intermediate", "advanced"]
    # Each person's page shows their own hand, a spectator's none.
    _, match = services.current(game.id)  # type: ignore[misc]
    from rules_engine import card_codes

    mine = client.get(response["Location"]).content.decode()
    theirs = friend.get(response["Location"]).content.decode()
    watcher = Client().get(response["Location"]).content.decode()
    hand0 = card_codes(match.round.hands[0])
    hand1 = card_codes(match.round.hands[1])
    assert all(f'data-card="{c}"' in mine for c in hand0)
    assert not any(f'data-card="{c}"' in mine for c in hand1)
    assert all(f'data-card="{c}"' in theirs for c in hand1)
    assert not any(f'data-card="{c}"' in watcher for c in hand0 + hand1)
    assert 'data-testid="spectator"' in watcher
    # Started: seats no longer change.
    response = Client().post(f"/zh-hans/play/room/{room.token}/take/", {"seat": "2"})
    assert response.status_code == 409


def test_a_forged_token_is_a_404() -> None:
    assert Client().get("/zh-hans/play/room/not-a-room/").status_code == 404
    assert Client().post("/zh-hans/play/room/not-a-room/take/", {"seat": "1"}).status_code == 404


def test_an_abandoned_room_is_closed_and_its_games_stay_readable(client: Client) -> None:
    room = create(client)
    response = client.post(f"/zh-hans/play/room/{room.token}/start/", {"fill": "1"})
    game_url = response["Location"]
    old = timezone.now() - datetime.timedelta(hours=13)
    Room.objects.filter(pk=room.pk).update(updated=old)
    Game.objects.filter(pk=Room.objects.get(pk=room.pk).game_id).update(updated=old)
    html = Client().get(room.get_absolute_url()).content.decode()
    assert Room.objects.get(pk=room.pk).status == Room.Status.CLOSED
    assert "这个房间已经关闭" in html
    response = client.post(f"/zh-hans/play/room/{room.token}/hand/", {"seat": "0"})
    assert response.status_code == 409
    assert client.get(game_url).status_code == 200


def test_hotseat_starts_at_once_with_the_curtain_down_and_no_hand(client: Client) -> None:
    response = client.post("/zh-hans/play/room/new/", {**FORM, "mode": "hotseat", "humans": "3"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s["kind"] for s in game.seats] == ["human", "human", "human", "computer"]
    html = client.get(response["Location"]).content.decode()
    _, match = services.current(game.id)  # type: ignore[misc]
    if match.round.to_act < 3:
        assert 'data-testid="curtain"' in html and 'data-action="reveal"' in html
    assert "data-card=" not in html[html.index('id="hand"') :][:2000]


def test_the_seats_poll_sends_a_seated_person_to_the_table_once_started(client: Client) -> None:
    room = create(client)
    friend = Client()
    friend.post(f"/zh-hans/play/room/{room.token}/take/", {"seat": "1", "name": "Bo"})
    poll = {"HTTP_HX_REQUEST": "true"}
    response = friend.get(f"/zh-hans/play/room/{room.token}/?part=seats", **poll)
    html = response.content.decode()
    assert response.status_code == 200 and 'id="room-live"' in html and "<html" not in html
    assert "HX-Redirect" not in response
    client.post(f"/zh-hans/play/room/{room.token}/start/", {"fill": "1"})
    response = friend.get(f"/zh-hans/play/room/{room.token}/?part=seats", **poll)
    game = Game.objects.get()
    assert response["HX-Redirect"] == f"/zh-hans/play/{game.id}/"
    # A watcher's poll stays on the room page, which offers to watch.
    response = Client().get(f"/zh-hans/play/room/{room.token}/?part=seats", **poll)
    assert "HX-Redirect" not in response
    assert 'data-testid="spectator"' in response.content.decode()


def test_a_forged_or_unknown_token_says_so_in_both_languages() -> None:
    from django.utils import translation

    from daifugo_site.rooms.messages import message

    for lang in ("zh-hans", "ja"):
        for response in (
            Client().get(f"/{lang}/play/room/not-a-room/"),
            Client().post(f"/{lang}/play/room/{'x' * 40}/take/", {"seat": "1"}),
            Client().post(f"/{lang}/play/room/not-a-room/start/", {"fill": "1"}),
        ):
            assert response.status_code == 404
            with translation.override(lang):
                assert message("no_such_room") in response.content.decode()
    assert not Room.objects.exists()


def test_a_seated_person_leaves_the_table_mid_game_and_comes_back(client: Client) -> None:
    from daifugo_site.rooms import presence

    room = create(client)
    friend = Client()
    friend.post(f"/zh-hans/play/room/{room.token}/take/", {"seat": "1", "name": "Bo"})
    client.post(f"/zh-hans/play/room/{room.token}/start/", {"fill": "1"})
    page = friend.get(f"/zh-hans/play/room/{room.token}/").content.decode()
    assert 'data-action="leave-room"' in page
    # A watcher has no seat to leave: refused, nothing changed.
    response = Client().post(f"/zh-hans/play/room/{room.token}/leave/")
    assert response.status_code == 409
    game = Game.objects.get()
    assert services.standin_seats(game, services.match_of(game)) == set()
    response = friend.post(f"/zh-hans/play/room/{room.token}/leave/")
    assert response.status_code == 302
    assert services.standin_seats(game, services.match_of(game)) == {1}
    # Opening the table again (its socket counts the page): the seat is the person's.
    presence.open_connection("c1", room.token, 1)
    assert services.standin_seats(game, services.match_of(game)) == set()


@pytest.mark.parametrize(
    ("table", "humans", "ok"),
    [("6", "6", True), ("1v1", "2", True), ("4", "5", False), ("3", "6", False)],
)
def test_hotseat_seats_two_to_six_people_and_never_more_than_the_table(
    table: str, humans: str, ok: bool
) -> None:
    client = Client()
    levels = {f"level_{i}": "beginner" for i in range(1, 6)}
    preset = "standard" if table in ("4", "1v1") else "basic"  # a preset for that size
    data = {**FORM, **levels, "table": table, "preset": preset, "mode": "hotseat"}
    data["humans"] = humans
    response = client.post("/ja/play/room/new/", data)
    if ok:
        assert response.status_code == 302
        game = Game.objects.get()
        assert sum(s["kind"] == "human" for s in game.seats) == int(humans)
    else:
        # Refused in words (ja), nothing created.
        assert response.status_code == 400
        players = 4 if table == "4" else 3
        assert f"{players}人の卓に{humans}人は座れません。" in response.content.decode()
        assert not Room.objects.exists() and not Game.objects.exists()


def test_the_room_page_shows_its_rules_in_the_visitor_s_language(client: Client) -> None:
    from django.core.management import call_command

    call_command("load_site_content", "--app", "pages", "-v", "0", stdout=open(os.devnull, "w"))
    room = create(client, opt_eight_cut="any", rounds="5", clock="30")
    page = Client().get(f"/ja/play/room/{room.token}/").content.decode()
    rules = page[page.index('data-testid="room-rules"') :]
    rules = rules[: rules.index("</section>")]
    from django.utils import translation

    from daifugo_site.play.forms import option_texts

    with translation.override("ja"):
        eight_cut = option_texts()["eight_cut"]
        expected = [str(eight_cut.label), str(eight_cut.value_labels()["any"]), ">5<"]
        expected += ["30秒" if "30秒" in rules else "30"]
    assert all(text in rules for text in expected), rules
    assert "スタンダード" in rules


def _play_to_the_end(game: Game, tokens: dict[int, str]) -> None:
    """Every seat plays the computer's choice through the one move path (people's seats
    as those people), until the match is over."""
    from rules_engine import Action
    from rules_engine.state import EXCHANGE

    for _ in range(3000):
        _g, match = services.current(game.id)  # type: ignore[misc]
        if match.over:
            return
        r = match.round
        if r.over:
            assert services.apply_action(
                game.id, Action.next_round(), by_computer=False, player=tokens[0]
            ).accepted
            continue
        seat = next(s for s in range(r.n) if r.owed[s]) if r.phase == EXCHANGE else r.to_act
        action = computers.computer_action(_g, match, seat)
        if seat in tokens:
            outcome = services.apply_action(game.id, action, by_computer=False, player=tokens[seat])
        else:
            outcome = services.apply_action(game.id, action, by_computer=True)
        assert outcome.accepted, outcome
    raise AssertionError("the match did not end")


def test_after_the_match_the_results_and_play_again_with_the_same_seats(client: Client) -> None:
    from daifugo_site.rooms.services import seats_of

    room = create(client, rounds="3")
    friend = Client()
    friend.post(f"/zh-hans/play/room/{room.token}/take/", {"seat": "1", "name": "Bo"})
    client.post(f"/zh-hans/play/room/{room.token}/start/", {"fill": "1"})
    game = Game.objects.get()
    # Not over yet: "play again" is refused, nothing changes.
    assert client.post(f"/zh-hans/play/room/{room.token}/again/").status_code == 409
    assert Game.objects.count() == 1
    tokens = {0: client.session[services.PLAYER_TOKEN_KEY]}
    tokens[1] = friend.session[services.PLAYER_TOKEN_KEY]
    _play_to_the_end(game, tokens)
    page = friend.get(f"/ja/play/room/{room.token}/").content.decode()
    results = page[page.index('data-testid="room-results"') :]
    assert results.count('<th scope="row">') == 3  # points of each of the 3 rounds
    assert "Aki" in results and "Bo" in results
    assert 'data-action="play-again-room"' not in page  # only the creator's
    # Someone else's "play again": refused in words, nothing created.
    response = friend.post(f"/zh-hans/play/room/{room.token}/again/")
    assert response.status_code == 403 and Game.objects.count() == 1
    page = client.get(f"/zh-hans/play/room/{room.token}/").content.decode()
    assert 'data-action="play-again-room"' in page
    response = client.post(f"/zh-hans/play/room/{room.token}/again/")
    assert response.status_code == 302
    again = Game.objects.exclude(pk=game.pk).get()
    assert [(e["kind"], e.get("player")) for e in again.seats] == [
        (e["kind"], e.get("player")) for e in game.seats
    ]
    room.refresh_from_db()
    assert room.game_ids == [game.id, again.id] and room.status == Room.Status.PLAYING
    assert [r.kind for r in seats_of(room)] == ["human", "human", "computer", "computer"]
    # Both matches stay in the room's results.
    page = client.get(f"/zh-hans/play/room/{room.token}/").content.decode()
    assert page.count("<caption>") == 2


def test_the_creators_seat_is_marked_in_each_languages_own_brackets(client: Client) -> None:
    """The seat of the page's person says "you" in full-width brackets (（あなた）, （你）),
    not ASCII ones around the translated word."""
    room = create(client)
    assert "（你）" in client.get(f"/zh-hans/play/room/{room.token}/").content.decode()
    assert "（あなた）" in client.get(f"/ja/play/room/{room.token}/").content.decode()
