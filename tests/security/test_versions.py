"""The version is required on every action, so a repeated frame is never applied twice."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client

from daifugo_site.play.models import Game
from tests.daifugo_site.play.conftest import PlayClient, make_game

pytestmark = pytest.mark.django_db(transaction=True)

HUMAN_LEADS = 0  # seed: seat 0 holds the diamond 3
COMPUTER_LEADS = 13  # seed: seat 1 leads


async def stored(game_id: str) -> Game:
    return await database_sync_to_async(Game.objects.get)(pk=game_id)


@pytest.mark.parametrize(
    "payload",
    [
        {"action": "pass"},
        {"action": "pass", "v": ""},
        {"action": "pass", "v": None},
        {"action": "play", "cards": "D3"},
        {"action": "give", "cards": "D3"},
        {"action": "next"},
    ],
)
async def test_an_action_without_a_version_is_refused(payload) -> None:
    game, key = await database_sync_to_async(make_game)(seed=HUMAN_LEADS)
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    client = PlayClient(game.id, key, lang="ja")
    await client.connect()
    await client.send(payload)
    table = await client.receive()
    assert table.error == "version_required"
    assert "どの時点の卓に対するものか" in table.raw
    after = await stored(game.id)
    assert (after.version, after.actions) == (0, [])
    await client.close()


async def test_the_same_pass_frame_is_applied_once_across_turns() -> None:
    # The probe: {"action": "pass"} was accepted three times in three turns. With the
    # version, the first copy is applied and a later copy is stale.
    game, key = await database_sync_to_async(make_game)(seed=COMPUTER_LEADS)
    client = PlayClient(game.id, key)
    await client.connect()
    first = await client.until(lambda t: t.your_turn and t.can_pass and t.error is None)
    v0 = first.version
    assert v0 is not None
    frame = {"action": "pass", "v": str(v0)}
    await client.send(frame)
    again = await client.until(lambda t: t.your_turn and t.version is not None and t.version > v0)
    after_first = await stored(game.id)
    assert after_first.actions[v0] == {"seat": 0, "pass": True}
    await client.send(frame)
    refused = await client.until(lambda t: t.error is not None)
    assert refused.error == "stale"
    now = await stored(game.id)
    assert now.version == again.version  # nothing applied for the copy
    human_passes = [a for a in now.actions if a == {"seat": 0, "pass": True}]
    assert len(human_passes) == 1
    await client.close()


def test_the_give_and_next_forms_carry_the_version() -> None:
    # Without it the page itself could not give or start the next round.
    from daifugo_site.play.rendering import render_table

    game, key = make_game(seed=HUMAN_LEADS, rounds=3)
    client = Client()
    client.cookies["sessionid"] = key
    page = client.get(game.get_absolute_url()).content.decode()
    for action in ("play", "pass"):
        form = page[page.index(f'value="{action}"') :]
        assert 'name="v" value="0"' in form[: form.index("</form>")]
    template = (settings.BASE_DIR / "templates/play/game.html").read_text(encoding="utf-8")
    for action in ("give", "next"):
        form = template[template.index(f'name="action" value="{action}"') :]
        assert 'name="v" value="{{ view.version }}"' in form[: form.index("</form>")]
    assert render_table(game.id, "ja", True) is not None
