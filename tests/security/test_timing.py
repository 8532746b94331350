"""Issue 11 item 6: a computer's reply time says nothing about its hand.

A forced pass (one legal move: the player answers at once) and a chosen move (a search)
are both published ``delay_ms`` after the turn began. Measured here on the real driver
and the real pool process, advanced players, over a round's worth of turns.
"""

from __future__ import annotations

import statistics
import time

import pytest
from channels.db import database_sync_to_async

from daifugo_site.play import computers, services
from rules_engine import Action

from ..daifugo_site.play.conftest import make_game

pytestmark = pytest.mark.django_db(transaction=True)

# The fast speed, the shortest pace offered (play/forms.py SPEEDS).
DELAY_MS = 300


def _human_move(game_id: str) -> bool:
    """The human seat plays its first legal move; False when the round is over."""
    loaded = services.current(game_id)
    assert loaded is not None
    game, match = loaded
    r = match.round
    if r.over or r.to_act != 0:
        return False
    move = r.legal_moves()[0]
    action = (
        Action.pass_(0)
        if move.is_pass
        else Action("play", 0, str(move).split("/")[0], move.form_name if move.ambiguous else None)
    )
    assert services.apply_action(game_id, action, by_computer=False).accepted
    return True


async def test_forced_and_chosen_replies_take_the_same_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, _ = await database_sync_to_async(make_game)(
        seed=13, levels=["advanced"] * 3, players=4, rounds=1
    )
    await database_sync_to_async(
        services.Game.objects.filter(pk=game.id).update  # type: ignore[attr-defined]
    )(delay_ms=DELAY_MS)
    services._CACHE.pop(game.id, None)
    commits: list[tuple[float, int, int]] = []  # (time, version, legal moves of the mover)
    real_submit = services.submit
    turn_start = [time.perf_counter()]

    async def timed(game_id: str, action: Action, **kw: object) -> services.Outcome:
        loaded = services.cached(game_id, int(kw["expected_version"]))  # type: ignore[call-overload]
        legal = len(loaded[1].round.legal_moves()) if loaded else -1
        out = await real_submit(game_id, action, **kw)  # type: ignore[arg-type]
        if out.accepted:
            now = time.perf_counter()
            commits.append((now - turn_start[0], out.version, legal))
            turn_start[0] = now
        return out

    monkeypatch.setattr(services, "submit", timed)
    # Warm the pool process (spawned on first use) outside the measurement.
    await computers.pool().run("warm", sum, [1, 2])
    for _ in range(30):
        turn_start[0] = time.perf_counter()
        await computers.drive(game.id)
        if not await database_sync_to_async(_human_move)(game.id):
            break
    forced = [t for t, _, legal in commits if legal == 1]
    chosen = [t for t, _, legal in commits if legal > 1]
    assert len(forced) >= 3 and len(chosen) >= 3, (len(forced), len(chosen))
    delay = DELAY_MS / 1000
    # Never earlier than the delay (a forced pass no longer answers at once)...
    assert min(forced + chosen) >= delay - 0.005
    # ...and the two kinds are indistinguishable: the same median within 25 ms (measured:
    # within a few ms; before, a forced pass answered in ~0 ms and a chosen one after the
    # full think).
    print(
        f"forced n={len(forced)} median={statistics.median(forced) * 1000:.1f} ms; "
        f"chosen n={len(chosen)} median={statistics.median(chosen) * 1000:.1f} ms; "
        f"max={max(forced + chosen) * 1000:.1f} ms"
    )
    assert abs(statistics.median(forced) - statistics.median(chosen)) < 0.025, (forced, chosen)
    # A search longer than the delay would show: the budget is set to fit in it. On a
    # shared 2-core machine a few turns may still overrun; most must not.
    late = [t for t in forced + chosen if t > delay + 0.05]
    assert len(late) <= len(forced + chosen) // 10, (forced, chosen)


def test_the_search_budget_fits_every_offered_pace() -> None:
    """Issue 45: the advanced level searched 450 ms of CPU at the 300 ms pace, so a chosen
    move came out later than a forced pass. At every speed offered the budget ends the
    search a margin before the pace; without a pace (tests, scripts) it is the level's own."""
    from django.conf import settings

    from daifugo_site.play.forms import SPEEDS

    for speed in SPEEDS:
        budget = computers.budget(int(speed))
        assert budget.time_ms is not None
        assert budget.time_ms + settings.PLAY_PACE_MARGIN_MS <= int(speed)
    assert computers.budget(0).time_ms == settings.PLAY_COMPUTER_BUDGET_MS
    assert computers.budget(1400).time_ms == settings.PLAY_COMPUTER_BUDGET_MS
