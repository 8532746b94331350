"""Scripted practice games for the review's tests: every seat plays the intermediate
heuristic (deterministic), so each seed is a known game whose decisions we can name."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from daifugo_site.play import services
from daifugo_site.play.models import Game
from rules_engine import Action, Match, RuleSet
from rules_engine.ai import Budget

#: A 1-round standard game where, at action 56, seat 0 (intermediate) plays S3 although
#: the solver proves that D7 (or C7, CQ, CK, D7 C7) makes sure of first place of the two
#: left: an exact, planted mistake (found by scanning seeds; see test_analysis).
PLANTED_SEED = 20
PLANTED_INDEX = 56


def scripted_actions(
    seed: int, rounds: int = 1, preset: str = "standard", stop: int | None = None
) -> tuple[Match, list[dict[str, Any]]]:
    from daifugo_site.play import thinking

    m = Match.new(RuleSet.preset(preset), 4, rounds, seed)
    i = 0
    while not m.over and (stop is None or len(m.log) < stop):
        if m.round.over:
            out = m.apply(Action.next_round())
        else:
            r = m.round
            s = [s for s in range(4) if r.owed[s]][0] if r.to_act < 0 else r.to_act
            action = thinking.think(m.observe(s), "intermediate", f"x{i}", Budget(playouts=1))
            i += 1
            out = m.apply(action)
        assert not isinstance(out, type(None))
        m = out  # type: ignore[assignment]
    return m, [a.to_json() for a in m.log]


def owner_client() -> tuple[Client, str]:
    store = SessionStore()
    token = services.player_token(store)
    store.save()
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    return client, token


def scripted_game(
    token: str, seed: int = PLANTED_SEED, rounds: int = 1, stop: int | None = None
) -> Game:
    m, actions = scripted_actions(seed, rounds, stop=stop)
    return Game.objects.create(
        owner=token,
        rules=RuleSet.preset("standard").to_json(),
        players=4,
        rounds=rounds,
        seed=seed,
        seats=[{"kind": "human"}] + [{"kind": "computer", "level": "intermediate"}] * 3,
        human_seat=0,
        actions=actions,
        version=len(actions),
        scores=list(m.scores),
        status=Game.Status.FINISHED if m.over else Game.Status.PLAYING,
        delay_ms=0,
    )


@pytest.fixture
def owner() -> tuple[Client, str]:
    return owner_client()


#: A 1-round standard game where seat 0, leading the first trick (action 0), throws
#: away the joker alone (the heuristic would not): a planted mistake that only sampling
#: judges (a 600-world search puts its cost at 0.43 ± 0.05 points).
EARLY_STRONG_SEED = 33
EARLY_STRONG_INDEX = 0


def planted_early_strong(seed: int = EARLY_STRONG_SEED) -> tuple[Match, int | None]:
    """Every seat the intermediate heuristic, except that seat 0's first lead (with at
    least 9 cards) from action 0 on is a lone 2 or joker when it holds one."""
    from daifugo_site.play import thinking
    from daifugo_site.review import analysis
    from rules_engine.cards import JOKER_SHIFT

    m = Match.new(RuleSet.preset("standard"), 4, 1, seed)
    i, planted = 0, None
    while not m.over:
        r = m.round
        s = [s for s in range(4) if r.owed[s]][0] if r.to_act < 0 else r.to_act
        obs = m.observe(s)
        action = thinking.think(obs, "intermediate", f"x{i}", Budget(playouts=1))
        if s == 0 and planted is None and obs.field is None and bin(obs.hand).count("1") >= 9:
            strong = [
                mv
                for mv in obs.legal
                if not mv.is_pass and mv.size == 1 and (mv.cards >> JOKER_SHIFT or mv.rank == 12)
            ]
            if strong:
                action, planted = analysis.move_action(0, strong[0]), len(m.log)
        i += 1
        out = m.apply(action)
        assert not isinstance(out, type(None))
        m = out  # type: ignore[assignment]
    return m, planted


@pytest.fixture(autouse=True)
def _no_review_job_outlives_its_test():
    """A review job a test started (through a view) must not keep working into the next
    test: it would hold the database thread the next one's socket waits on."""
    from daifugo_site.review import services as review_services

    yield
    for task in list(review_services._JOBS.values()):
        try:
            task.cancel()
        except RuntimeError:  # its loop is already closed: it runs no more anyway
            pass
    review_services._JOBS.clear()
