"""A seat's state names why a penalised seat took its place: a forbidden finish or
miyako-ochi, as the engine's effects recorded it (issue 39, item 1)."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from daifugo_site.play.presenter import table_view
from rules_engine import Match, RuleSet, card_codes
from rules_engine.actions import Action
from rules_engine.cards import format_cards
from rules_engine.effects import MIYAKO_OCHI, PENALISED
from rules_engine.state import EXCHANGE

from .conftest import make_game

pytestmark = pytest.mark.django_db


def _match_with_both_penalties() -> tuple[Match, dict[int, str]]:
    """A standard match played at random until one round holds a forbidden finish and a
    miyako-ochi; returns it and seat -> the effect kind that put the seat at the bottom."""
    for seed in range(100):
        m = Match.new(RuleSet.preset("standard"), players=4, rounds=3, seed=seed)
        rng = random.Random(seed)
        causes: dict[int, str] = {}
        while not m.over:
            r = m.round
            if r.over:
                m, causes = m.apply(Action.next_round()), {}  # type: ignore[assignment]
                continue
            if r.phase == EXCHANGE:
                seat = next(s for s in range(r.n) if r.owed[s])
                give = " ".join(card_codes(r.hands[seat])[: r.owed[seat]])
                action = Action.give(seat, give)
            else:
                move, seat = rng.choice(r.legal_moves()), r.to_act
                form = move.form_name if move.ambiguous else None
                action = (
                    Action.pass_(seat)
                    if move.is_pass
                    else Action.play(seat, format_cards(move.cards), form)
                )
            nxt = m.apply(action)
            assert isinstance(nxt, Match)
            m = nxt
            causes |= {
                e.seat: e.kind for e in m.round.effects if e.kind in {PENALISED, MIYAKO_OCHI}
            }
            if set(causes.values()) == {PENALISED, MIYAKO_OCHI}:
                return m, causes
    raise AssertionError("no round with both penalties in 100 seeds")


@pytest.mark.parametrize(
    ("language", "forbidden", "miyako"),
    [("zh-hans", "违规出完", "都落："), ("ja", "反則上がり", "都落ち：")],
)
def test_each_penalised_seat_is_labelled_by_its_cause(
    language: str, forbidden: str, miyako: str
) -> None:
    match, causes = _match_with_both_penalties()
    game, _key = make_game()
    with translation.override(language):
        view = table_view(game, match, is_owner=True)
    states = {s.seat: s.state_text for s in view.seats}
    for seat, cause in causes.items():
        place = match.round.places()[seat]
        assert f"{place}" in states[seat]
        if cause == MIYAKO_OCHI:
            assert states[seat].startswith(miyako) and forbidden not in states[seat]
        else:
            assert states[seat].startswith(forbidden), states[seat]
