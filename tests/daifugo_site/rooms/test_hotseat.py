"""Hotseat over the real socket: three people and a computer on one device play a whole
match with the exchange; while the curtain is down no frame holds a hand, and a shown
hand is only ever the hand of the person the curtain named."""

from __future__ import annotations

import asyncio
import re

import pytest
from channels.db import database_sync_to_async

from daifugo_site.play import computers, services
from daifugo_site.rooms import services as rooms
from daifugo_site.rooms.models import Room
from rules_engine import Action, RuleSet, card_codes
from tests.daifugo_site.play.conftest import PlayClient, new_session
from tests.daifugo_site.play.test_ws_game import first_play, hidden_cards_at

from .test_room_sockets import all_cards_hidden

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def thread_pool(monkeypatch: pytest.MonkeyPatch) -> computers.FairPool:
    from concurrent.futures import ThreadPoolExecutor

    fair = computers.FairPool(1, 1, executor=lambda: ThreadPoolExecutor(1))
    monkeypatch.setattr(computers, "_POOL", fair)
    monkeypatch.setattr(computers, "_LEASES", computers.LocalLeases(3000))
    return fair


def hotseat_game() -> tuple[str, str]:
    key, token = new_session()
    room = rooms.create_room(
        creator=token,
        name="",
        rules=RuleSet.preset("standard"),
        players=4,
        rounds=3,
        levels=["beginner"] * 3,
        mode=Room.Mode.HOTSEAT,
        humans=3,
        delay_ms=0,
    )
    game, refusal = rooms.start(room, token, fill=True)
    assert game is not None and refusal is None
    return game.id, key


async def test_a_hotseat_match_never_shows_a_hand_under_the_curtain(
    thread_pool: computers.FairPool,
) -> None:
    game_id, key = await database_sync_to_async(hotseat_game)()
    client = PlayClient(game_id, key)
    table = await client.connect()
    # (message index, seat revealed or None) for every frame.
    reveals = 0
    for _ in range(3000):
        panel = client.page.get("room-panel", "")
        if table.match_over:
            break
        curtain = re.search(r'name="seat" value="(\d+)"', panel) if "curtain" in panel else None
        if table.error is None and table.version is not None:
            if curtain:
                await client.send({"action": "reveal", "seat": curtain.group(1), "v": "0"})
                reveals += 1
            elif 'data-action="next"' in panel:
                await client.send({"action": "next", "v": str(table.version)})
            elif table.owe:
                await client.send(
                    {
                        "action": "give",
                        "cards": " ".join(table.hand[: table.owe]),
                        "v": str(table.version),
                    }
                )
            elif table.your_turn:
                await client.send(first_play(table))
        table = await client.until(lambda t: t.error is None, 10)
    else:
        raise AssertionError("the match did not end")
    assert reveals > 10
    await asyncio.sleep(0.1)
    await client.close()
    loaded = await database_sync_to_async(services.current)(game_id)
    assert loaded is not None
    _, match = loaded
    assert match.over and any(a.kind == "give" for a in match.log)
    everything = all_cards_hidden(match)
    per_seat = [hidden_cards_at(match, s) for s in range(4)]
    checked = 0
    for text in client.messages:
        version = re.search(r'data-version="(\d+)"', text)
        curtain = re.search(r'data-testid="curtain".*?name="seat" value="(\d+)"', text, re.S)
        hand = text[text.find('id="hand"') :] if 'id="hand"' in text else ""
        hand_cards = re.findall(r'data-card="([A-Z0-9]{2})"', hand[: hand.find("</section>")])
        if curtain or (version is None and "curtain" in text):
            # Curtain down: not one card of any hand anywhere in the frame.
            v = int(version.group(1)) if version else None
            if v is not None:
                for code in card_codes(everything[v]):
                    assert f'data-card="{code}"' not in text, f"{code} under the curtain at v{v}"
            assert not hand_cards
            checked += 1
        elif hand_cards and version:
            v = int(version.group(1))
            # A shown hand is one person's: no card another seat holds.
            seats = [s for s in range(3) if not set(hand_cards) & set(card_codes(per_seat[s][v]))]
            assert seats, f"a hand mixing seats at v{v}"
    assert checked > 10


@pytest.mark.parametrize("stranger", ["no cookie", "another session"])
async def test_a_strangers_socket_never_sees_or_plays_a_hotseat_hand(
    thread_pool: computers.FairPool, stranger: str
) -> None:
    """Only the device that owns a hotseat table may lift its curtain or act: a second
    socket (no cookie at all, or another browser's session) asking to reveal the seat to
    act is refused, is shown no curtain and no card of any hand, and its play changes
    nothing."""
    game_id, key = await database_sync_to_async(hotseat_game)()
    other = None if stranger == "no cookie" else (await database_sync_to_async(new_session)())[0]
    client = PlayClient(game_id, other)
    table = await client.connect()
    await client.drain()
    loaded = await database_sync_to_async(services.current)(game_id)
    assert loaded is not None
    game, match = loaded
    everything = all_cards_hidden(match)[game.version]
    seat = match.round.to_act if match.round.phase != "exchange" else 0
    for message in (
        {"action": "reveal", "seat": str(seat), "v": "0"},
        {"action": "reveal", "seat": seat},
        {"action": "play", "cards": "D3", "v": str(game.version)},
        {"action": "pass", "v": str(game.version)},
        {"action": "next", "v": str(game.version)},
    ):
        await client.send(message)
        table = await client.until(lambda t: t.error is not None, 5)
        assert table.error == "not_owner", message
    await client.drain()
    assert 'data-testid="curtain"' not in "".join(client.messages)
    for text in client.messages:
        for code in card_codes(everything):
            assert f'data-card="{code}"' not in text, f"{code} shown to a stranger"
    after = await database_sync_to_async(services.current)(game_id)
    assert after is not None and after[0].version == game.version
    await client.close()


@pytest.mark.django_db(transaction=False)
def test_the_engine_path_refuses_a_table_of_peoples_move_without_a_player() -> None:
    """services.apply_action itself: at a table of people, a human action with no player
    token (a viewer) is refused, whatever the socket layer let through."""
    game_id, _key = hotseat_game()
    loaded = services.current(game_id)
    assert loaded is not None
    game, match = loaded
    seat = match.round.to_act
    assert game.seats[seat].get("kind") == "human" or seat == 3
    for action in (
        Action("play", seat, card_codes(match.round.hands[seat])[0]),
        Action.pass_(seat),
        Action.next_round(),
    ):
        out = services.apply_action(game_id, action, by_computer=False, player=None)
        assert not out.accepted and out.reason in ("not_owner", "not_your_seat", "not_your_turn")
    assert services.current(game_id)[0].version == game.version  # type: ignore[index]
