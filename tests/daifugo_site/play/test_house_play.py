"""Issue 40, the play side of the house rules: the computer driver makes owed choices, the
socket takes choose/name (and refuses bad ones in words), and the table shows the choice
owed, the prompt, the discards, the direction and the skips, hiding a gift's cards from
everyone but its two seats."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from daifugo_site.play import computers, hooks, services, thinking
from daifugo_site.play.models import Game
from daifugo_site.play.presenter import table_view
from daifugo_site.ui.cardviews import card_name
from rules_engine import Action, observe
from rules_engine.ai import Budget

from .conftest import PlayClient, make_game

HOUSE = {"twelve_bomber": "groups", "sandstorm": True}
#: Seeds of a 4-seat ``house`` game (with 12-bomber and sandstorm) where seat 0, the human,
#: leads and may lead: a single 7 (seed 12: it then owes seat 1 one card), or a single 10
#: or queen (seed 0: it owes one discard, or one rank to name).
GIVE_SEED = 12
DISCARD_SEED = NAME_SEED = 0


def lead_with(game: Game, rank: str) -> Action:
    """Seat 0's lead: its lowest single of ``rank``."""
    match = services.match_of(game)
    move = next(m for m in match.round.legal_moves() if m.size == 1 and str(m)[1] == rank)
    return Action("play", 0, str(move), None)


def house_game(seed: int, **kwargs: object) -> tuple[Game, str]:
    return make_game(preset="house", seed=seed, **{**HOUSE, **kwargs})


# -- the computer players make owed choices --------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("seed", "rank", "kind"), [(12, "7", 0), (0, "T", 1), (0, "Q", 2)])
def test_thinking_answers_an_owed_choice_with_a_legal_choice(
    seed: int, rank: str, kind: int
) -> None:
    game, _ = house_game(seed)
    assert services.apply_action(game.id, lead_with(game, rank), by_computer=False).accepted
    game, match = services.current(game.id)  # type: ignore[misc]
    owed = match.round.owed_choice()
    assert owed is not None and owed[:2] == (0, kind)
    obs = match.observe(0)
    for level in ("beginner", "intermediate", "advanced"):
        action = thinking.think(obs, level, "s", Budget(playouts=40))
        assert action.kind == ("name" if kind == 2 else "choose")
        assert not hasattr(match.apply(action), "reason"), (level, action)
    for heuristic in (True, False):
        action = thinking.safe_action(obs, heuristic=heuristic)
        assert not hasattr(match.apply(action), "reason"), action


@pytest.mark.django_db(transaction=True)
async def test_computers_alone_play_a_house_match_to_the_end(
    thread_pool: computers.FairPool,
) -> None:
    """Every seat a computer (the human's too): the site's driver plays every round, each
    owed choice included, and the match ends."""

    def all_computers() -> Game:
        game, _ = make_game(
            preset="house",
            seed=5,
            rounds=3,
            levels=["beginner", "intermediate", "beginner"],
            **HOUSE,
        )
        game.seats[0] = {"kind": "computer", "level": "intermediate"}
        game.save(update_fields=["seats"])
        return game

    game = await database_sync_to_async(all_computers)()
    for _ in range(3):
        await computers.drive(game.id)
        game, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
        assert match.round.over
        if match.over:
            break
        assert (
            await services.submit(
                game.id, Action.next_round(), by_computer=False, expected_version=game.version
            )
        ).accepted
    game, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    assert match.over and game.status == Game.Status.FINISHED
    kinds = {next(k for k in ("play", "pass", "give", "choose", "name", "next") if k in a)
             for a in game.actions}  # fmt: skip
    assert "choose" in kinds, "a 7-pass or 10-discard was made by a computer"


# -- the table ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_owing_seat_is_prompted_and_the_others_see_who_chooses() -> None:
    game, _ = house_game(GIVE_SEED)
    services.apply_action(game.id, lead_with(game, "7"), by_computer=False)
    game, match = services.current(game.id)  # type: ignore[misc]
    from django.utils import translation

    with translation.override("ja"):
        mine = table_view(game, match, is_owner=True)
        viewer = table_view(game, match, is_owner=False)
    assert mine.choosing and mine.owed is not None and mine.owed.kind == "give"
    assert "7渡し" in mine.choice_prompt and "コンピューター1" in mine.choice_prompt
    assert not any(item.dim for item in mine.hand_items)  # every card may be given
    assert not viewer.choosing and viewer.choice_prompt == ""
    plate = viewer.seats[0].state_text
    assert "7渡し" in plate, plate
    # The panel says it as the log does, naming who chooses.
    assert viewer.owed_text.startswith("7渡し：") and "プレイヤー" in viewer.owed_text


@pytest.mark.django_db
def test_discards_are_public_and_the_direction_is_shown_under_nine_reverse() -> None:
    game, _ = house_game(DISCARD_SEED)
    services.apply_action(game.id, lead_with(game, "T"), by_computer=False)
    game, match = services.current(game.id)  # type: ignore[misc]
    card = match.round.legal_choices()[0]
    from rules_engine import format_cards

    services.apply_action(game.id, Action.choose(0, format_cards(card)), by_computer=False)
    game, match = services.current(game.id)  # type: ignore[misc]
    viewer = table_view(game, match, is_owner=False)
    assert viewer.discarded_codes == [format_cards(card)]
    assert viewer.direction == 1  # 9-reverse is on in the house preset: the order is shown


@pytest.mark.django_db
def test_a_skipped_seat_is_marked_until_the_next_play() -> None:
    from daifugo_site.play.presenter import skipped_now
    from rules_engine import effects as fx

    e = fx.Effect(fx.SKIPPED, 2)
    marked = skipped_now((e,), frozenset())
    assert marked == {2}
    assert skipped_now((fx.Effect(fx.PASSED, 3),), marked) == {2}
    assert skipped_now((fx.Effect(fx.PLAYED, 3),), marked) == frozenset()


# -- the socket ---------------------------------------------------------------------------------


async def open_house(seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Game, PlayClient]:
    # No computer moves: the test reads the table as the choice left it.
    monkeypatch.setattr(hooks, "driver", None)
    game, key = await database_sync_to_async(house_game)(seed)
    client = PlayClient(game.id, key, lang="ja")
    await client.connect()
    return game, client


async def stored(game_id: str) -> Game:
    return await database_sync_to_async(Game.objects.get)(pk=game_id)


@pytest.mark.django_db(transaction=True)
async def test_bad_choices_over_the_socket_are_refused_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, client = await open_house(NAME_SEED, monkeypatch)
    # No choice owed yet.
    await client.send({"action": "name", "ranks": "5", "v": "0"})
    table = await client.receive()
    assert table.error == "no_choice_owed"
    lead = await database_sync_to_async(lead_with)(game, "Q")
    await client.send({"action": "play", "cards": lead.cards, "v": "0"})
    await client.until(lambda t: t.version == 1)
    before = await stored(game.id)
    cases = [
        ({"action": "name", "ranks": "5 5", "v": "1"}, "rank_repeated"),
        ({"action": "name", "ranks": "JK", "v": "1"}, "not_a_rank"),
        ({"action": "name", "ranks": "5 9", "v": "1"}, "choice_wrong_count"),
        ({"action": "name", "ranks": "", "v": "1"}, "choice_wrong_count"),
        ({"action": "name", "ranks": 7, "v": "1"}, "choice_wrong_count"),
        ({"action": "choose", "cards": "S4", "v": "1"}, "no_choice_owed"),
        ({"action": "pass", "v": "1"}, "choice_owed"),
        ({"action": "name", "ranks": "5", "v": "0"}, "stale"),
    ]
    for payload, reason in cases:
        await client.send(payload)
        table = await client.receive()
        assert table.error == reason, (payload, table.error)
        assert 'role="alert"' in table.raw_message
    after = await stored(game.id)
    assert (after.version, after.actions) == (before.version, before.actions)
    # Translated: the sentence of a wrong count is said of a choice.
    await client.send({"action": "name", "ranks": "5 9", "v": "1"})
    table = await client.receive()
    assert "ルールで決まった数だけ、ちょうど選んでください。" in table.raw_message
    await client.close()


@pytest.mark.django_db(transaction=True)
async def test_a_gift_is_seen_by_the_giver_and_never_by_a_viewer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, owner = await open_house(GIVE_SEED, monkeypatch)
    viewer = PlayClient(game.id, None, lang="ja")
    await viewer.connect()
    lead = await database_sync_to_async(lead_with)(game, "7")
    await owner.send({"action": "play", "cards": lead.cards, "v": "0"})
    table = await owner.until(lambda t: t.version == 1)
    assert (
        'data-testid="choice"' in table.raw_message and 'data-action="choose"' in table.raw_message
    )
    await viewer.until(lambda t: t.version == 1)
    assert 'data-testid="owed"' in viewer.page.get("house", "")
    give = table.hand[0]
    await owner.send({"action": "choose", "cards": give, "v": "1"})
    table = await owner.until(lambda t: t.version == 2)
    from django.utils import translation

    with translation.override("ja"):
        name = card_name(give)
    assert name in owner.page["log"], "the giver's log names the card given"
    assert give not in table.hand
    await viewer.until(lambda t: t.version == 2)
    await asyncio.sleep(0.1)
    await viewer.drain()
    seen = "".join(viewer.messages)
    assert f'data-card="{give}"' not in seen and name not in seen
    assert "7渡し" in viewer.page["log"]
    # The engine's observation for a third seat agrees.
    _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    third = observe(match.round, 2)
    assert all(c[3] == 0 for c in third.choices)
    await owner.close()
    await viewer.close()


def test_the_refusal_words_exist_for_every_choice_reason() -> None:
    from daifugo_site.ui.reasons import REASON_TEXT

    for reason in ("choice_owed", "no_choice_owed", "not_a_rank", "rank_repeated",
                   "choice_wrong_count", "wrong_count", "not_in_hand"):  # fmt: skip
        assert reason in REASON_TEXT


@pytest.mark.django_db
def test_the_computer_makes_the_choice_an_absent_persons_seat_owes() -> None:
    """A room's person whose drop time has run out: the computer plays for their seat,
    the owed house-rule choice included, through the same one path (by_computer)."""
    import datetime

    from django.utils import timezone

    from daifugo_site.rooms import presence
    from daifugo_site.rooms import services as rooms
    from daifugo_site.rooms.models import Room, RoomSeat
    from rules_engine import RuleSet

    from .conftest import new_session

    _key, token = new_session()
    room = rooms.create_room(
        creator=token,
        name="",
        rules=RuleSet.preset("house", **HOUSE),
        players=4,
        rounds=3,
        levels=["beginner"] * 3,
        mode=Room.Mode.LINK,
        humans=1,
        drop_timeout_s=1,
        delay_ms=0,
    )
    # A friend at seat 1 keeps the table going (their page is open).
    assert rooms.take_seat(room, 1, new_session()[1], "Bo") is None
    game, _ = rooms.start(room, token, fill=True)
    assert game is not None
    # The deal this test knows (seat 0 leads and holds a single 7): set before any move.
    Game.objects.filter(pk=game.id).update(seed=GIVE_SEED)
    services._CACHE.pop(game.id, None)
    game, _ = services.current(game.id)  # type: ignore[misc]
    assert services.apply_action(
        game.id, lead_with(game, "7"), by_computer=False, player=token
    ).accepted
    RoomSeat.objects.filter(room=room).update(
        away_since=timezone.now() - datetime.timedelta(minutes=5)
    )
    presence.open_connection("c1", room.token, 1)
    game, match = services.current(game.id)  # type: ignore[misc]
    assert match.round.owed_choice() is not None
    assert 0 in services.standin_seats(game, match)
    assert services.computers_to_act(game, match) == [0]
    action = computers.computer_action(game, match, 0)
    assert action.kind == "choose"
    assert services.apply_action(
        game.id, action, by_computer=True, expected_version=game.version
    ).accepted
