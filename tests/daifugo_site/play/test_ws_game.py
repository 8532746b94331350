"""A whole match over the real ASGI application: computer seats, a scripted human, the
exchange, results; and that no message ever shows a card the human may not see."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from daifugo_site.play.models import Game
from daifugo_site.ui.templatetags.cards import card_name
from rules_engine import Match, card_codes, observe
from rules_engine.cards import REAL_MASK

from .conftest import PlayClient, Table

pytestmark = pytest.mark.django_db(transaction=True)


def first_play(table: Table) -> dict[str, str]:
    """The scripted human: the first listed legal play, else pass."""
    if table.legal:
        move = table.legal[0]
        data = {"action": "play", "cards": " ".join(move["cards"]), "v": str(table.version)}
        if move["ambiguous"]:
            data["shape"] = move["form"]
        return data
    return {"action": "pass", "v": str(table.version)}


async def play_match(client: PlayClient, table: Table, max_actions: int = 2000) -> Table:
    """Answer every push that wants the human, until the match is over."""
    for _ in range(max_actions):
        if table.match_over:
            return table
        if table.error is None and table.version is not None:
            if table.round_over:
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
        table = await client.until(lambda t: t.version is not None and t.error is None)
    raise AssertionError("the match did not end")


def hidden_cards_at(match: Match, seat: int) -> list[int]:
    """Per version: the cards the human may not see (other hands, face-down cards)."""
    hidden = []
    replay = Match.new(match.rules, match.players, match.rounds, match.seed)
    states = [replay]
    for action in match.log:
        replay = replay.apply(action)  # type: ignore[assignment]
        states.append(replay)
    for state in states:
        r = state.round
        obs = observe(r, seat)
        others = 0
        for s in range(r.n):
            if s != seat:
                others |= r.hands[s] & REAL_MASK
        others |= r.facedown & REAL_MASK
        # Cards the human gave in the exchange are known to it.
        others &= ~obs.gave
        hidden.append(others)
    return hidden


def assert_nothing_hidden_shown(messages: list[str], hidden: list[int]) -> None:
    checked = 0
    for text in messages:
        version = re.search(r'data-version="(\d+)"', text)
        if not version:
            # An error message: it names no card.
            assert "data-card" not in text
            continue
        secret = hidden[int(version.group(1))]
        for code in card_codes(secret):
            assert f'data-card="{code}"' not in text, f"hidden {code} shown at v{version.group(1)}"
            assert card_name(code) not in text, f"hidden {code} named at v{version.group(1)}"
        checked += 1
    assert checked > 10


async def test_a_whole_match_of_three_rounds_with_the_exchange(game_factory) -> None:
    game, key = await game_factory(rounds=3, seed=3)
    client = PlayClient(game.id, key)
    table = await client.connect()
    final = await play_match(client, table)
    assert final.match_over
    assert 'data-testid="round-result"' in final.raw
    await client.close()
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    assert stored.status == Game.Status.FINISHED
    match = Match.from_record(stored.record())
    assert match.over and len(match.results) == 3
    # The exchange happened in rounds 2 and 3, and points were kept.
    assert sum(1 for a in match.log if a.kind == "give") >= 4
    assert sum(stored.scores) == 3 * (0 + 1 + 2 + 3)
    from django.utils import translation

    with translation.override("zh-hans"):
        assert_nothing_hidden_shown(client.messages, hidden_cards_at(match, stored.human_seat))


EXCHANGE = re.compile(r'<section id="exchange".*?</section>', re.S)
EXCHANGE_ROW = re.compile(
    r'<div class="exchange__cards( exchange__cards--new)?">(.*?)</ul>\s*</div>', re.S
)


async def test_the_exchanges_cards_fly_in_once(game_factory) -> None:
    """A row of exchanged cards is marked new (animated) only in the push that first shows
    it: the section is sent again when the exchange ends, with the same cards, unmarked."""
    game, key = await game_factory(rounds=3, seed=3)
    client = PlayClient(game.id, key)
    final = await play_match(client, await client.connect())
    assert final.match_over
    await client.close()
    shown: set[tuple[str, ...]] = set()
    new_rows = still_rows = 0
    for text in client.messages:
        section = EXCHANGE.search(text)
        if section is None:
            continue
        rows = EXCHANGE_ROW.findall(section.group(0))
        if not rows:
            shown.clear()  # a round without an exchange on the page: nothing shown
        for marked, row in rows:
            codes = tuple(re.findall(r'data-card="([A-Z0-9]+)"', row))
            assert codes
            assert bool(marked) == (codes not in shown), (codes, shown)
            new_rows += bool(marked)
            still_rows += not marked
            shown.add(codes)
    # Rounds 2 and 3: cards given and received, each marked once, then sent again unmarked.
    assert new_rows >= 4
    assert still_rows >= 2


async def test_one_on_one_never_shows_the_face_down_cards(game_factory) -> None:
    game, key = await game_factory(players=2, rounds=1, hand_size=13, seed=9)
    client = PlayClient(game.id, key, lang="ja")
    final = await play_match(client, await client.connect())
    assert final.round_over and final.match_over
    await client.close()
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    match = Match.from_record(stored.record())
    assert match.round.facedown, "the 1v1 game sets 27 cards aside"
    from django.utils import translation

    with translation.override("ja"):
        assert_nothing_hidden_shown(client.messages, hidden_cards_at(match, 0))


async def test_reconnect_mid_round_comes_back_where_the_game_was(game_factory) -> None:
    game, key = await game_factory(seed=21)
    client = PlayClient(game.id, key)
    table = (
        await client.until(lambda t: t.your_turn)
        if not (t := await client.connect()).your_turn
        else t
    )
    await client.send(first_play(table))
    table = await client.until(lambda t: t.your_turn or t.round_over)
    await client.close()
    again = PlayClient(game.id, key)
    resumed = await again.connect()
    assert resumed.version == table.version
    assert resumed.hand == table.hand
    assert resumed.legal == table.legal
    await again.close()


async def test_two_pages_of_one_game_see_the_same_state(game_factory) -> None:
    game, key = await game_factory(seed=4)
    first = PlayClient(game.id, key)
    second = PlayClient(game.id, key, lang="ja")
    t1 = await first.connect()
    await second.connect()
    if not t1.your_turn:
        t1 = await first.until(lambda t: t.your_turn)
    await first.send(first_play(t1))
    # The computers answer at once; pushes may skip versions (a page is sent the newest
    # state), so wait until the human is to act again, then compare the two pages there.
    a = await first.until(lambda t: t.version > t1.version and (t.your_turn or t.round_over))
    b = await second.until(lambda t: t.version is not None and t.version >= a.version)
    assert b.version == a.version
    assert a.hand == b.hand
    assert a.legal == b.legal
    # Same table, each page in its own language.
    assert any(suit in a.raw for suit in ("黑桃", "红心", "方块", "梅花"))
    assert any(suit in b.raw for suit in ("スペード", "ハート", "ダイヤ", "クラブ"))
    await first.close()
    await second.close()


async def test_the_movers_page_shows_its_move_once_and_at_once(game_factory) -> None:
    """The page that moved is sent the new table straight from the move (not after the
    channel layer's round trip), and the group broadcast of that version sends nothing
    more to it; another page of the game gets it from the broadcast."""
    game, key = await game_factory(seed=0)  # seed 0: the human holds the diamond 3, leads
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    mover = PlayClient(game.id, key)
    watcher = PlayClient(game.id, key, lang="ja")
    t = await mover.connect()
    await watcher.connect()
    assert t.your_turn
    await mover.send(first_play(t))
    pushed = await mover.receive()
    assert pushed.version == t.version + 1
    # The computers now wait a minute before answering: nothing else may come.
    assert await mover.communicator.receive_nothing(timeout=0.5)
    seen = await watcher.until(lambda x: x.version is not None and x.version >= t.version + 1)
    assert seen.version == t.version + 1
    await mover.close()
    await watcher.close()
