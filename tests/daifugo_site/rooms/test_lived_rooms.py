"""Issue 38, section 3, rooms: the link's share button, the countdown before the next round
starts by itself, the computer's moves for an absent person marked in the log and on the
seat, and named hotseat players."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone, translation

from daifugo_site.play import presenter, rendering, services
from daifugo_site.play.models import Game
from daifugo_site.rooms import services as rooms
from daifugo_site.rooms.models import Room, RoomSeat
from daifugo_site.rooms.socket import Table, panel_context
from daifugo_site.ui.templatetags.cards import card_name
from rules_engine import Action, card_codes

from .conftest import seated_room
from .test_room_views import FORM

pytestmark = pytest.mark.django_db


# -- 1. the share button ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "label", "copied"),
    [("zh-hans", "复制链接", "链接已复制。"), ("ja", "リンクをコピー", "リンクをコピーしました。")],
)
def test_the_room_page_has_a_share_button_with_its_sentences(
    client: Client, lang: str, label: str, copied: str
) -> None:
    client.post(f"/{lang}/play/room/new/", FORM)
    room = Room.objects.get()
    html = client.get(f"/{lang}/play/room/{room.token}/").content.decode()
    button = re.search(r'<button type="button"[^>]*data-action="share"[^>]*>([^<]*)</button>', html)
    assert button is not None and button.group(1) == label
    assert f'data-url="http://testserver/{lang}/play/room/{room.token}/"' in button.group(0)
    assert f'data-said-copied="{copied}"' in button.group(0)
    # The confirmation goes into a polite live region next to it; the script is loaded.
    assert re.search(r'role="status" aria-live="polite" data-testid="share-status"', html)
    assert "rooms/share" in html and ".js" in html


# -- 3. the computer's moves for an absent person -----------------------------------------


def _legal(match: Any, seat: int) -> Action:
    obs = match.observe(seat)
    moves = [m for m in obs.legal if not m.is_pass] or list(obs.legal)
    move = moves[0]
    if move.is_pass:
        return Action.pass_(seat)
    return Action.play(seat, " ".join(card_codes(move.cards)))


def _play_until(game: Game, tokens: dict[int, str], done: Any, limit: int = 400) -> None:
    """Every seat plays its first legal move (people by their token, the others by the
    computer) until ``done(game, match)``."""
    for _ in range(limit):
        loaded = services.current(game.id)
        assert loaded is not None
        game, match = loaded
        if done(game, match):
            return
        if match.round.over:
            outcome = services.apply_action(
                game.id, Action.next_round(), by_computer=False, player=tokens[0]
            )
        else:
            seat = match.round.to_act
            player = tokens.get(seat)
            outcome = services.apply_action(
                game.id,
                _legal(match, seat),
                by_computer=player is None,
                player=player,
                expected_version=game.version,
            )
        assert outcome.accepted, outcome
    raise AssertionError("never got there")


def test_a_move_the_computer_makes_for_an_absent_person_is_marked_from_the_record() -> None:
    room, game, sessions = seated_room(2, players=4, rounds=3)
    assert game is not None
    tokens = {0: sessions[0][1], 1: sessions[1][1]}
    # P1 is away: the creator lets the computer play for them.
    assert rooms.hand_to_computer(room, tokens[0], 1) is None
    away = {0: tokens[0]}  # seat 1 is played by the computer now
    _play_until(game, away, lambda g, m: any(a.seat == 1 for a in m.log))
    game, match = services.current(game.id)  # type: ignore[misc]
    index = max(i for i, a in enumerate(match.log) if a.seat == 1)
    # Written with the move, where it was applied.
    assert game.seats[1][services.ABSENT_MOVES] == [index]
    assert services.absent_moves(game) == {index: 1}
    # Seat 2 and 3 are computer seats: their moves are not "for someone".
    assert all(services.ABSENT_MOVES not in game.seats[s] for s in (0, 2, 3))

    with translation.override("ja"):
        view = presenter.table_view(game, match, is_owner=True, seat=0)
        html, _keys, _v = rendering.render_table(game.id, "ja", True, seat=0)  # type: ignore[misc]
        viewer, _keys, _v = rendering.render_table(game.id, "ja", False)  # type: ignore[misc]
    marked = [e.text for e in view.log if "コンピューターがP1の代わりにプレイしました" in e.text]
    assert len(marked) == 1
    assert view.seats[1].absent and not any(view.seats[s].absent for s in (0, 2, 3))
    for page in (html, viewer):
        assert page.count('data-seat-state="absent"') == 2  # the felt's plate, the table row
        assert "コンピューターが代行中" in page
        assert "コンピューターがP1の代わりにプレイしました" in page
        # Nothing of the absent person's hand: no card of it, by code or by name.
        for code in card_codes(match.round.hands[1]):
            assert f'data-card="{code}"' not in page
            with translation.override("ja"):
                assert card_name(code) not in page

    # P1 comes back (presence says nothing of them now) and plays: the seat is theirs
    # again, and the log still says which move the computer made for them.
    RoomSeat.objects.filter(room=room, seat=1).update(handed=False)
    _play_until(
        game,
        tokens,
        lambda g, m: any(i > index and a.seat == 1 for i, a in enumerate(m.log)),
    )
    game, match = services.current(game.id)  # type: ignore[misc]
    assert game.seats[1][services.ABSENT_MOVES] == [index]
    with translation.override("zh-hans"):
        view = presenter.table_view(game, match, is_owner=True, seat=0)
    assert not view.seats[1].absent
    if match.round_no == 0:
        assert sum("由电脑代P1操作" in e.text for e in view.log) == 1


def test_a_turn_clock_run_out_is_not_an_absence() -> None:
    room, game, sessions = seated_room(2, players=4, clock_s=15)
    assert game is not None
    tokens = {0: sessions[0][1], 1: sessions[1][1]}
    _play_until(game, {0: tokens[0]}, lambda g, m: m.round.to_act == 1)
    game, match = services.current(game.id)  # type: ignore[misc]
    Game.objects.filter(pk=game.id).update(updated=game.updated - datetime.timedelta(seconds=20))
    services._CACHE.pop(game.id, None)
    game, match = services.current(game.id)  # type: ignore[misc]
    outcome = services.apply_action(
        game.id, _legal(match, 1), by_computer=True, expected_version=game.version
    )
    assert outcome.accepted
    stored = Game.objects.get(pk=game.id)
    assert services.ABSENT_MOVES not in stored.seats[1]


# -- 2. the countdown before the next round -----------------------------------------------


def _to_round_end(game: Game, tokens: dict[int, str]) -> tuple[Game, Any]:
    _play_until(game, tokens, lambda g, m: m.round.over)
    loaded = services.current(game.id)
    assert loaded is not None
    return loaded


@override_settings(ROOMS_NEXT_ROUND_S=30)
def test_the_next_round_countdown_comes_from_the_servers_deadline() -> None:
    room, game, sessions = seated_room(2, players=4, rounds=3)
    assert game is not None
    tokens = {0: sessions[0][1], 1: sessions[1][1]}
    game, match = _to_round_end(game, tokens)
    # Ended 12 s ago: 18 s left, from the row's write time (the same in every process).
    Game.objects.filter(pk=game.id).update(updated=timezone.now() - datetime.timedelta(seconds=12))
    services._CACHE.pop(game.id, None)
    game, match = services.current(game.id)  # type: ignore[misc]
    context = panel_context(game, match, 0, None, oob=False)
    assert context["next_round_in"] == 18
    assert 17_000 < context["next_round_ms"] <= 18_000
    due = datetime.datetime.fromisoformat(context["next_round_at"])
    assert due == game.updated + datetime.timedelta(seconds=30)
    # The computer moves on then, not before (presence.moves_on reads the same deadline).
    from daifugo_site.rooms import presence

    assert not presence.moves_on(game, match)

    # Said once to a screen reader, in the page's language; the number is not live.
    table = Table(game, 0, tokens[0])
    socket = _Socket("ja", game.id)
    first = table.panel_html(socket, game, match)
    again = table.panel_html(socket, game, match)
    said = "次の回は18秒後に自動で始まります。"
    assert said in _news(first) and said not in _news(again)
    countdown = re.search(r'<p[^>]*data-testid="next-round-countdown"[^>]*>.*?</p>', first)
    assert countdown is not None
    assert "次の回が自動で始まるまでの秒数" in countdown.group(0)
    assert "aria-live" not in countdown.group(0) and 'role="status"' not in countdown.group(0)
    assert re.search(r"<span data-seconds>18</span>", countdown.group(0))

    # A reconnecting page (a new socket) counts to the same end, from the server.
    Game.objects.filter(pk=game.id).update(updated=timezone.now() - datetime.timedelta(seconds=25))
    services._CACHE.pop(game.id, None)
    game, match = services.current(game.id)  # type: ignore[misc]
    assert panel_context(game, match, 0, None, oob=False)["next_round_in"] == 5

    # Past the deadline the computer may start the next round; after it, no countdown.
    Game.objects.filter(pk=game.id).update(updated=timezone.now() - datetime.timedelta(seconds=31))
    services._CACHE.pop(game.id, None)
    game, match = services.current(game.id)  # type: ignore[misc]
    assert presence.moves_on(game, match)
    services.apply_action(game.id, Action.next_round(), by_computer=False, player=tokens[0])
    game, match = services.current(game.id)  # type: ignore[misc]
    assert panel_context(game, match, 0, None, oob=False)["next_round_in"] is None
    assert 'data-testid="next-round-countdown"' not in table.panel_html(socket, game, match)


def test_the_countdown_is_on_the_page_of_a_table_between_rounds(client: Client) -> None:
    room, game, sessions = seated_room(2, players=4, rounds=3)
    assert game is not None
    tokens = {0: sessions[0][1], 1: sessions[1][1]}
    _to_round_end(game, tokens)
    client.cookies["sessionid"] = sessions[1][0]
    html = client.get(f"/zh-hans/play/{game.id}/").content.decode()
    assert 'data-testid="next-round-countdown"' in html and "距下一局自动开始的秒数" in html


class _Socket:
    def __init__(self, lang: str, game_id: str) -> None:
        self.lang = lang
        self.game_id = game_id


def _news(panel: str) -> str:
    start = panel.index('id="room-news"')
    return panel[start : panel.index("</div>", start)]


# -- 4. named hotseat players ----------------------------------------------------------------

HOTSEAT = {**FORM, "mode": "hotseat", "humans": "3", "name": ""}


def test_hotseat_people_are_named_and_the_names_are_escaped(client: Client) -> None:
    response = client.post(
        "/ja/play/room/new/",
        {**HOTSEAT, "person_1": "  さくら  ", "person_2": "<script>x</script>", "person_3": ""},
    )
    assert response.status_code == 302
    room = Room.objects.get()
    names = list(RoomSeat.objects.filter(room=room).values_list("name", flat=True))
    assert names == ["さくら", "<script>x</script>", "", ""]
    game = Game.objects.get(pk=room.game_id)
    # The third person, left unnamed, is the seat's own name, in the creator's language.
    assert [game.seats[s]["name"] for s in range(3)] == [
        "さくら",
        "<script>x</script>",
        "プレイヤー3",
    ]
    html = client.get(f"/ja/play/{game.id}/").content.decode()
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html
    # The curtain names the first person to act.
    loaded = services.current(game.id)
    assert loaded is not None
    first = loaded[1].round.to_act
    if first < 3:
        wanted = ["さくら", "&lt;script&gt;x&lt;/script&gt;", "プレイヤー3"][first]
        assert f"端末を{wanted}に渡してください" in html
    room_page = client.get(f"/ja/play/room/{room.token}/").content.decode()
    assert "さくら" in room_page and "&lt;script&gt;x&lt;/script&gt;" in room_page
    assert "<script>x</script>" not in room_page


def test_hotseat_names_in_the_log_and_the_results() -> None:
    key, token = _session()
    room = rooms.create_room(
        creator=token,
        name="",
        rules=_rules(),
        players=4,
        rounds=3,
        levels=["beginner"] * 3,
        mode=Room.Mode.HOTSEAT,
        humans=2,
        delay_ms=0,
        names=["Hana", "<b>Ken</b>"],
    )
    game, _refusal = rooms.start(room, token, fill=True)
    assert game is not None
    game, match = _to_round_end(game, {0: token, 1: token})
    html, _k, _v = rendering.render_table(game.id, "zh-hans", False)  # type: ignore[misc]
    results = html[html.index('id="results"') :]
    assert "Hana" in results and "&lt;b&gt;Ken&lt;/b&gt;" in results
    log = html[html.index('id="log"') :]
    assert "Hana" in log and "&lt;b&gt;Ken&lt;/b&gt;" in log
    assert "<b>Ken</b>" not in html


@pytest.mark.parametrize(
    ("person", "lang", "said"),
    [
        ("x" * 21, "ja", "プレイヤー2の名前が長すぎます（20文字まで）。"),
        ("a\u0007b", "ja", "プレイヤー2の名前に、名前に使えない文字"),
        ("line\nbreak", "zh-hans", "2号玩家的名字含有不能用于名字的字符"),
        ("x" * 5000, "zh-hans", "2号玩家的名字太长：最多20个字符。"),
    ],
)
def test_a_bad_hotseat_name_is_refused_in_words_and_nothing_is_created(
    client: Client, person: str, lang: str, said: str
) -> None:
    response = client.post(f"/{lang}/play/room/new/", {**HOTSEAT, "person_2": person})
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not Room.objects.exists() and not Game.objects.exists()


def test_twenty_characters_after_stripping_are_a_name_and_extra_lines_are_ignored(
    client: Client,
) -> None:
    name = "山田\u3000" + "x" * 17  # 20 characters, with a full-width space inside
    response = client.post(
        "/ja/play/room/new/",
        # Only three people at this device: a fourth line (shown without the script) is
        # not read, whatever it holds.
        {**HOTSEAT, "person_1": f"  {name}\t", "person_4": "y" * 99},
    )
    assert response.status_code == 302
    room = Room.objects.get()
    assert RoomSeat.objects.get(room=room, seat=0).name == name


def test_the_set_up_page_asks_for_the_hotseat_names() -> None:
    html = Client().get("/zh-hans/play/").content.decode()
    fields = re.findall(r'<input id="room-person-(\d)" name="person_\1" maxlength="20"', html)
    assert fields == ["1", "2", "3", "4", "5", "6"]
    assert "这台设备上各位玩家的名字（可不填）" in html


def _session() -> tuple[str, str]:
    from tests.daifugo_site.play.conftest import new_session

    return new_session()


def _rules() -> Any:
    from rules_engine import RuleSet

    return RuleSet.preset("standard")


# -- over the socket: the countdown comes with the round's end and goes with the next ----------


@pytest.mark.django_db(transaction=True)
async def test_a_link_tables_page_is_told_the_countdown_when_the_round_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from channels.db import database_sync_to_async

    from daifugo_site.play import computers
    from tests.daifugo_site.play.conftest import PlayClient
    from tests.daifugo_site.play.test_ws_game import first_play

    fair = computers.FairPool(1, 1, executor=lambda: ThreadPoolExecutor(1))
    monkeypatch.setattr(computers, "_POOL", fair)
    monkeypatch.setattr(computers, "_LEASES", computers.LocalLeases(3000))
    room, game, sessions = await database_sync_to_async(seated_room)(2, players=4)
    assert game is not None
    # Seat 1's person is away: the computer plays for them (and marks it).
    await database_sync_to_async(rooms.hand_to_computer)(room, sessions[0][1], 1)
    a = PlayClient(game.id, sessions[0][0])
    table = await a.connect()
    for _ in range(300):
        if table.round_over:
            break
        if table.your_turn and table.error is None:
            await a.send(first_play(table))
        table = await a.receive(timeout=15)
    assert table.round_over
    await asyncio.sleep(0.3)
    await a.drain()
    said = "下一局将在"
    ended = next(i for i, m in enumerate(a.messages) if 'data-testid="round-result"' in m)
    later = a.messages[ended:]
    assert any('data-testid="next-round-countdown"' in m for m in later)
    news = [_news(m) for m in later if 'id="room-news"' in m]
    assert sum(said in n for n in news) == 1, news
    assert "由电脑代P1操作" in a.page.get("log", "") or any(
        "由电脑代P1操作" in m for m in a.messages
    )
    # Someone moves on: the countdown goes.
    await a.send({"action": "next", "v": str(table.version)})
    await a.until(lambda t: not t.round_over and t.error is None, 15)
    await asyncio.sleep(0.3)
    await a.drain()
    panels = [m for m in a.messages if 'id="room-panel"' in m]
    assert 'data-testid="next-round-countdown"' not in panels[-1]
    await a.close()


def round_end_with_an_absent_seat() -> dict[str, str]:
    """For the browser test (``manage.py shell``): a room whose seat 1 the computer played
    for its absent person to the end of the first round; seat 0's session and the game."""
    room, game, sessions = seated_room(2, players=4, rounds=3)
    assert game is not None
    assert rooms.hand_to_computer(room, sessions[0][1], 1) is None
    _to_round_end(game, {0: sessions[0][1]})
    return {"game": game.id, "session": sessions[0][0]}


def test_at_one_device_an_unnamed_first_person_is_player_1_not_the_nickname(
    client: Client,
) -> None:
    response = client.post("/zh-hans/play/room/new/", {**HOTSEAT, "name": "Aki"})
    assert response.status_code == 302
    game = Game.objects.get(pk=Room.objects.get().game_id)
    assert [game.seats[s]["name"] for s in range(3)] == ["1号玩家", "2号玩家", "3号玩家"]
