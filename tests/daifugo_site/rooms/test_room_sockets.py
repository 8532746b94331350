"""Several people at one room table over the real ASGI application (in-process layer):
a whole match with the exchange, each page showing only its own hand; a spectator; a drop
and a take-back; the creator handing a seat over; the turn clock; acting for another seat.
Every frame is checked for the cards its page may not see."""

from __future__ import annotations

import asyncio
import datetime
import html

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from daifugo_site import limits
from daifugo_site.play import computers, services
from daifugo_site.play.models import Game
from daifugo_site.rooms import presence
from daifugo_site.rooms import services as rooms
from daifugo_site.rooms.models import Room, RoomSeat, SeatConnection
from rules_engine import Match, card_codes
from rules_engine.cards import REAL_MASK
from tests.daifugo_site.play.conftest import PlayClient
from tests.daifugo_site.play.test_ws_game import (
    assert_nothing_hidden_shown,
    first_play,
    hidden_cards_at,
    play_match,
)

from .conftest import seated_room

pytestmark = pytest.mark.django_db(transaction=True)


def all_cards_hidden(match: Match) -> list[int]:
    """Per version: every hand and face-down card (a spectator sees none)."""
    hidden = []
    replay = Match.new(match.rules, match.players, match.rounds, match.seed)
    states = [replay]
    for action in match.log:
        replay = replay.apply(action)  # type: ignore[assignment]
        states.append(replay)
    for state in states:
        r = state.round
        cards = r.facedown
        for s in range(r.n):
            cards |= r.hands[s]
        hidden.append(cards & REAL_MASK)
    return hidden


@pytest.fixture
def thread_pool(monkeypatch: pytest.MonkeyPatch) -> computers.FairPool:
    from concurrent.futures import ThreadPoolExecutor

    fair = computers.FairPool(1, 1, executor=lambda: ThreadPoolExecutor(1))
    monkeypatch.setattr(computers, "_POOL", fair)
    monkeypatch.setattr(computers, "_LEASES", computers.LocalLeases(3000))
    return fair


async def test_three_people_play_a_whole_match_each_seeing_only_their_hand(
    thread_pool: computers.FairPool,
) -> None:
    room, game, sessions = await database_sync_to_async(seated_room)(3, rounds=3)
    assert game is not None
    clients = [PlayClient(game.id, key) for key, _ in sessions]
    watcher = PlayClient(game.id, None)
    tables = [await c.connect() for c in clients]
    await watcher.connect()
    finals = await asyncio.wait_for(
        asyncio.gather(*(play_match(c, t) for c, t in zip(clients, tables, strict=True))), 120
    )
    assert all(f.match_over for f in finals)
    await watcher.drain()
    _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    assert match.over and len(match.results) == 3
    # Round 2 began with the exchange: givers and receivers among the people.
    assert any(a.kind == "give" for a in match.log)
    for seat, client in enumerate(clients):
        assert_nothing_hidden_shown(client.messages, hidden_cards_at(match, seat))
    assert_nothing_hidden_shown(watcher.messages, all_cards_hidden(match))
    assert any('data-testid="spectator"' in m for m in watcher.messages)
    for c in [*clients, watcher]:
        await c.close()
    room = await database_sync_to_async(Room.objects.get)(pk=room.pk)
    await database_sync_to_async(rooms.finished)(
        room, await database_sync_to_async(Game.objects.get)(pk=game.id)
    )
    assert room.status == Room.Status.FINISHED


async def test_acting_for_another_seat_is_refused_and_changes_nothing() -> None:
    room, game, sessions = await database_sync_to_async(seated_room)(2)
    assert game is not None
    _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    # A person's seat (the seat check comes before the turn's).
    to_act = match.round.to_act if match.round.to_act in (0, 1) else 0
    # Whoever is not to act sends the one to act's move with their own socket.
    other = 1 if to_act == 0 else 0
    client = PlayClient(game.id, sessions[other][0])
    await client.connect()
    move = next(m for m in match.round.legal_moves() if not m.is_pass)
    # (The cards may not even be that seat's: the seat check refuses first.)
    outcome = await services.submit(
        game.id,
        services.Action("play", to_act, " ".join(card_codes(move.cards)), None),
        by_computer=False,
        expected_version=0,
        player=sessions[other][1],
    )
    assert (outcome.accepted, outcome.reason) == (False, "not_your_seat")
    assert (await database_sync_to_async(Game.objects.get)(pk=game.id)).version == 0
    await client.close()


async def _standins_become(game_id: str, seats: set[int], seconds: float = 15) -> bool:
    """Whether the seats the computer plays become ``seats`` within ``seconds`` (a page's
    presence is counted just after its first frame, and a loaded machine is slow)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        loaded = await database_sync_to_async(services.current)(game_id)
        assert loaded is not None
        if await database_sync_to_async(services.standin_seats)(*loaded) == seats:
            return True
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.1)


def _age_away(room: Room, seat: int, seconds: float) -> None:
    RoomSeat.objects.filter(room=room, seat=seat).update(
        away_since=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=seconds)
    )


async def test_a_seat_whose_person_has_not_come_yet_is_waiting_not_dropped(
    thread_pool: computers.FairPool,
) -> None:
    room, game, sessions = await database_sync_to_async(seated_room)(2, drop_timeout_s=15)
    assert game is not None
    a = PlayClient(game.id, sessions[0][0])
    await a.connect()
    await a.drain()
    # Seat 1 has not opened the table: "not come yet", with the countdown, and nothing
    # announced (that is how every game starts), never "lost the connection".
    panels = [m for m in a.messages if 'id="room-panel"' in m]
    assert panels and 'data-presence="waiting"' in panels[-1]
    assert "data-countdown" in panels[-1]
    assert not any('data-presence="away"' in m for m in a.messages)
    with translation.override("zh-hans"):
        lost = html.escape(
            translation.gettext("%(name)s has lost the connection.") % {"name": "P1"}
        )
        came = html.escape(translation.gettext("%(name)s has come to the table.") % {"name": "P1"})
        waiting = html.escape(
            translation.gettext("%(name)s has not come to the table yet.") % {"name": "P1"}
        )
    assert waiting in panels[-1]
    assert not any(lost in m for m in a.messages)
    before = len(a.messages)
    # The person arrives: said once; and once they leave, they have lost the connection.
    b = PlayClient(game.id, sessions[1][0])
    await b.connect()
    await a.until(lambda t: any(came in m for m in a.messages[before:]), 30)
    seat1 = await database_sync_to_async(RoomSeat.objects.get)(room=room, seat=1)
    assert seat1.arrived
    await b.communicator.disconnect(timeout=15)
    await a.until(lambda t: 'data-presence="away"' in a.messages[-1], 30)
    assert lost in a.messages[-1]
    await a.communicator.disconnect(timeout=15)


async def test_a_dropped_seat_is_played_by_the_computer_then_taken_back(
    thread_pool: computers.FairPool,
) -> None:
    room, game, sessions = await database_sync_to_async(seated_room)(2, drop_timeout_s=15)
    assert game is not None
    a = PlayClient(game.id, sessions[0][0])
    b = PlayClient(game.id, sessions[1][0])
    await a.connect()
    await b.connect()
    await a.drain()
    before = len(a.messages)
    # Seat 1 drops. (Time for the consumer's cleanup on a loaded machine: the test
    # communicator's default of 1 s would cancel it half way.)
    await b.communicator.disconnect(timeout=15)
    seat1 = await database_sync_to_async(RoomSeat.objects.get)(room=room, seat=1)
    assert seat1.away_since is not None
    assert not await database_sync_to_async(
        SeatConnection.objects.filter(room=room, seat=1).exists
    )()
    await a.drain()
    away = [m for m in a.messages if 'data-presence="away"' in m]
    assert away and "data-countdown" in away[-1]
    # Said once in the panel's live region, in the page's language.
    with translation.override("zh-hans"):
        dropped = html.escape(
            translation.gettext("%(name)s has lost the connection.") % {"name": "P1"}
        )
    news = [m[m.index('id="room-news"') :] for m in a.messages[before:] if 'id="room-news"' in m]
    assert sum(dropped in n[: n.index("</div>")] for n in news) == 1, (dropped, news)
    loaded = await database_sync_to_async(services.current)(game.id)
    assert loaded is not None
    assert await database_sync_to_async(services.standin_seats)(*loaded) == set()
    # The drop time runs out: the computer plays for seat 1, announced to the table.
    await database_sync_to_async(_age_away)(room, 1, 16)
    loaded = await database_sync_to_async(services.current)(game.id)
    assert loaded is not None
    assert await database_sync_to_async(services.standin_seats)(*loaded) == {1}
    await services.broadcast(game.id, loaded[0].version)  # any push re-reads presence
    from daifugo_site.rooms.socket import _tell

    await _tell(game.id)
    await a.until(lambda t: 'data-presence="standin"' in a.messages[-1], 30)
    # Seat 0 plays; the computer answers for seat 1 whenever it is its turn.
    table = None
    for _ in range(150):
        _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
        if any(act.seat == 1 for act in match.log):
            break
        # Never block on a push: on a busy machine the computers may take a while.
        table = await a.drain() or table
        if table is not None and table.your_turn and table.error is None:
            await a.send(first_play(table))
            table = None
        await asyncio.sleep(0.1)
    _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    assert any(act.seat == 1 for act in match.log), "the computer never played seat 1"
    # The person comes back through the same session: the seat is theirs again.
    b2 = PlayClient(game.id, sessions[1][0])
    await b2.connect()
    assert await _standins_become(game.id, set())
    await a.drain()
    with translation.override("zh-hans"):
        back = html.escape(translation.gettext("%(name)s is back at the table.") % {"name": "P1"})
    assert any(back in m for m in a.messages)
    for c in (a, b2):
        await c.close()


async def test_the_creator_hands_a_seat_over_and_others_cannot() -> None:
    room, game, sessions = await database_sync_to_async(seated_room)(2)
    assert game is not None
    assert await database_sync_to_async(rooms.hand_to_computer)(room, sessions[1][1], 0) == (
        "not_creator"
    )
    assert await database_sync_to_async(rooms.hand_to_computer)(room, sessions[0][1], 1) is None
    loaded = await database_sync_to_async(services.current)(game.id)
    assert loaded is not None
    assert await database_sync_to_async(services.standin_seats)(*loaded) == {1}


async def test_a_turn_clock_running_out_lets_the_computer_play_that_turn(
    thread_pool: computers.FairPool,
) -> None:
    room, game, sessions = await database_sync_to_async(seated_room)(2, clock_s=5)
    assert game is not None
    clients = [PlayClient(game.id, key) for key, _ in sessions]
    for c in clients:
        await c.connect()
    await asyncio.sleep(0.3)  # the computers play up to the first person's turn
    for c in clients:
        await c.drain()
    assert any('data-testid="turn-clock"' in m for m in clients[0].messages + clients[1].messages)
    loaded, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    waiting = match.round.to_act
    assert waiting in (0, 1)
    version = loaded.version
    # Nobody moves: after 5 s the computer plays the seat to act.
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(
        updated=loaded.updated - datetime.timedelta(seconds=6)
    )
    services._CACHE.pop(game.id, None)
    await computers.drive(game.id)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    assert stored.version > version and stored.actions[version]["seat"] == waiting
    for c in clients:
        await c.close()


def _age_connections(room: Room, seat: int, seconds: float) -> int:
    return SeatConnection.objects.filter(room=room, seat=seat).update(
        seen=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=seconds)
    )


async def test_a_page_whose_worker_died_stops_counting_and_the_seat_goes_to_the_computer(
    thread_pool: computers.FairPool, settings: object
) -> None:
    """A worker killed with a page open never says goodbye: its connection row just stops
    being renewed. Once stale, the seat is away since that row's last beat; after the drop
    time the computer plays it; the person reconnecting takes it back."""
    from daifugo_site.rooms import socket

    settings.ROOMS_HEARTBEAT_S = 0.2  # type: ignore[attr-defined]
    settings.ROOMS_CONNECTION_STALE_S = 10  # type: ignore[attr-defined]
    room, game, sessions = await database_sync_to_async(seated_room)(2, drop_timeout_s=15)
    assert game is not None
    a = PlayClient(game.id, sessions[0][0])
    b = PlayClient(game.id, sessions[1][0])
    await a.connect()
    await b.connect()
    seats = database_sync_to_async(
        lambda: sorted(SeatConnection.objects.filter(room=room).values_list("seat", flat=True))
    )
    for _ in range(150):  # each page's row is written just after its first frame
        if await seats() == [0, 1]:
            break
        await asyncio.sleep(0.1)
    assert await seats() == [0, 1]
    # b's worker "dies": its beat no longer renews b's row, and nothing closes it.
    dead = next(c for c, (_room, seat) in socket._LIVE.items() if seat == 1)
    socket._LIVE.pop(dead)
    socket._LIVE_GAMES.pop(dead)
    await asyncio.sleep(0.5)  # a's beats run (a's own row is renewed)
    loaded = await database_sync_to_async(services.current)(game.id)
    assert loaded is not None
    assert await database_sync_to_async(services.standin_seats)(*loaded) == set()
    # Stale but less than the drop time since its last beat: counted away, not yet handed.
    assert await database_sync_to_async(_age_connections)(room, 1, 11) == 1
    gone = database_sync_to_async(lambda: not SeatConnection.objects.filter(pk=dead).exists())
    for _ in range(300):  # a's next beat clears the dead row (every 0.2 s here)
        if await gone():
            break
        await asyncio.sleep(0.1)
    assert await gone(), "no live worker cleared the dead worker's row"
    seat1 = await database_sync_to_async(RoomSeat.objects.get)(room=room, seat=1)
    assert seat1.away_since is not None  # a's worker carried the dead row's last beat over
    # ... and told the table: the others see seat 1 away, with the countdown.
    await a.until(lambda t: 'data-presence="away"' in a.messages[-1], 30)
    assert await database_sync_to_async(services.standin_seats)(*loaded) == set()
    # The drop time (15 s) since the last beat runs out: the computer plays seat 1.
    await database_sync_to_async(_age_away)(room, 1, 16)
    assert await database_sync_to_async(services.standin_seats)(*loaded) == {1}
    table = None
    for _ in range(150):
        _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
        if any(act.seat == 1 for act in match.log):
            break
        table = await a.drain() or table
        if table is not None and table.your_turn and table.error is None:
            await a.send(first_play(table))
            table = None
        await computers.drive(game.id)
        await asyncio.sleep(0.1)
    _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    assert any(act.seat == 1 for act in match.log), "the computer never played seat 1"
    # The person opens the page again (another worker): the seat is theirs again.
    b2 = PlayClient(game.id, sessions[1][0])
    await b2.connect()
    assert await _standins_become(game.id, set())
    for c in (a, b, b2):
        await c.close()


def test_a_slow_worker_puts_back_a_row_judged_dead_and_purge_clears_leftovers() -> None:
    from daifugo_site.pages.management.commands.purge import stale_querysets
    from daifugo_site.rooms import presence

    room, game, _sessions = seated_room(2)
    assert game is not None
    presence.open_connection("slow", room.token, 1)
    presence.open_connection("gone", room.token, 0)
    _age_connections(room, 1, 25)
    _age_connections(room, 0, 25)
    # A peer's beat (serving the room) clears both dead rows and says the room changed.
    assert presence.renew({"peer": (room.token, 0)}) == {room.token}
    assert not SeatConnection.objects.filter(pk__in=["slow", "gone"]).exists()
    # The slow worker's page was alive all along: its next beat puts its row back.
    assert presence.renew({"slow": (room.token, 1)}) == {room.token}
    assert SeatConnection.objects.filter(pk="slow", seat=1).exists()
    assert 1 not in {p.seat for p in presence.seat_states(game) if not p.connected}
    # A page that closed is not put back by a beat still holding its id.
    presence.close_connection("slow", room.token, 1)
    assert presence.renew({}) == set()
    assert not SeatConnection.objects.filter(pk="slow").exists()
    # Rows no worker renews are deleted by manage.py purge.
    presence.open_connection("left", room.token, 1)
    assert stale_querysets()["dead room connections"].count() == 0
    _age_connections(room, 1, 25)
    assert list(stale_querysets()["dead room connections"].values_list("pk", flat=True)) == ["left"]


async def test_two_tabs_of_one_person_share_the_seat_and_one_move_counts_once() -> None:
    """Two pages of one session are one person: both show their hand, the same move sent
    from both is applied once (the other is refused as stale, in words), and closing one
    tab does not make the seat away."""
    room, game, sessions = await database_sync_to_async(seated_room)(4)  # four people
    assert game is not None
    _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    seat = match.round.to_act
    key = sessions[seat][0]
    tabs = [PlayClient(game.id, key), PlayClient(game.id, key)]
    tables = [await t.connect() for t in tabs]
    for t in tabs:
        await t.drain()
    hand = set(card_codes(match.round.hands[seat]))
    assert all(set(t.hand) == hand and t.your_turn for t in tables)
    move = first_play(tables[0])
    for t in tabs:
        await t.send(move)
    await asyncio.sleep(0.5)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    assert stored.version == 1 and stored.actions[0]["seat"] == seat
    for t in tabs:
        await t.drain()
    refused = [m for t in tabs for m in t.messages if 'data-reason="stale"' in m]
    assert len(refused) == 1
    with translation.override("zh-hans"):
        assert html.escape(limits.message("stale")) in refused[0]
    await tabs[0].close()
    await asyncio.sleep(0.2)
    states = await database_sync_to_async(presence.seat_states)(stored)
    mine = next(p for p in states if p.seat == seat)
    assert mine.connected and mine.takeover_at is None and not mine.standin
    await tabs[1].close()


@pytest.mark.parametrize("mode", [Room.Mode.LINK, Room.Mode.HOTSEAT])
def test_a_table_with_nobody_at_it_waits_and_goes_on_when_someone_comes(mode: str) -> None:
    """Issue 45: ten rooms of advanced computers, abandoned, kept playing each other (the
    search processes 39% -> 97% busy). With no person's page open, no seat is the
    computer's to play (not the computers', not a dropped person's, not a run-out clock's)
    and the next round does not start; a page opening again brings them back."""
    from django.utils import timezone

    from rules_engine import RuleSet
    from tests.daifugo_site.play.conftest import new_session

    _key, token = new_session()
    room = rooms.create_room(
        creator=token,
        name="",
        rules=RuleSet.preset("standard"),
        players=4,
        rounds=3,
        levels=["advanced"] * 3,
        mode=mode,
        humans=1,
        drop_timeout_s=1,
        delay_ms=0,
    )
    game, _ = rooms.start(room, token, fill=True)
    assert game is not None
    # Everyone's drop time has run out (the link room's creator is a stand-in by now).
    RoomSeat.objects.filter(room=room).update(
        away_since=timezone.now() - datetime.timedelta(minutes=5)
    )
    game, match = services.current(game.id)  # type: ignore[misc]
    owed = {s for s in range(4) if game.seats[s].get("kind") == "computer"}
    if mode == Room.Mode.LINK:
        owed.add(0)
        assert 0 in services.standin_seats(game, match)
    assert not presence.anyone_here(game)
    assert services.computers_to_act(game, match) == []
    # Someone opens the page: the computers' turns are theirs again (and the person's
    # own seat is theirs, no longer the computer's: it failed whenever seat 0 led).
    presence.open_connection("c1", room.token, 0)
    owed.discard(0)
    assert presence.anyone_here(game)
    acting = services.computers_to_act(game, match)
    assert acting == ([match.round.to_act] if match.round.to_act in owed else [])
    # A page gone quiet for the stale time counts no more.
    SeatConnection.objects.filter(pk="c1").update(
        seen=timezone.now() - datetime.timedelta(minutes=5)
    )
    assert services.computers_to_act(game, match) == []


@pytest.mark.parametrize(
    ("lang", "said"),
    [("ja", "新しい卓へ移動します"), ("zh-hans", "正在带你去新的牌桌")],
)
async def test_the_rooms_next_match_takes_the_others_pages_to_its_table(
    thread_pool: computers.FairPool, lang: str, said: str
) -> None:
    """When the creator starts the room's next match (rooms.views.again tells the old
    game's pages "room.moved"), every other page of the finished game is sent to the new
    table, in its own language; before, only its unchanged panel came again and the
    person was left behind."""
    from channels.layers import get_channel_layer

    room, game, sessions = await database_sync_to_async(seated_room)(2, rounds=1)
    assert game is not None
    friend = PlayClient(game.id, sessions[1][0], lang=lang)
    await friend.connect()
    await friend.drain()
    layer = get_channel_layer()
    await layer.group_send(
        services.group_name(game.id), {"type": "room.moved", "game": "NEXTgame1"}
    )
    moved = ""
    while "data-follow" not in moved:  # a presence push of the panel may come first
        moved = await friend.communicator.receive_from(timeout=5)
    assert f'data-follow="/{lang}/play/NEXTgame1/"' in moved
    assert 'id="room-moved"' in moved and said in moved
    await friend.close()
