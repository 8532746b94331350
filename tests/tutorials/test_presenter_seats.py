"""A lesson's table names why a penalised seat took its place (a forbidden finish or
miyako-ochi), from the engine's effects of the replayed actions (issue 39, item 1)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tutorials import engine, presenter

# The miyako-ochi lesson's table: player 2 goes out with ♠2 (a forbidden finish), then
# you go out first cleanly and last round's first, player 1, drops out.
TABLE = {
    "hands": ["S2 D4 H5", "C5 SQ HA D6 H3", "JK C7", "S6 C8 D2 HT C4 H4"],
    "previous": [1, 2, 0, 3],
    "plays": [
        {"give": "H3 C5", "by": 1},
        {"give": "C7", "by": 2},
        {"play": "H3"},
        {"pass": True},
        {"pass": True},
        {"play": "JK"},
        {"pass": True},
        {"pass": True},
        {"pass": True},
        {"play": "S2"},
    ],
}
THEN = [
    {"pass": True},
    {"pass": True},
    {"pass": True},
    {"play": "H4"},
    {"play": "H5"},
    {"pass": True},
    {"pass": True},
    {"play": "D4"},
    {"pass": True},
    {"play": "C5"},
    {"play": "C7"},
]


@pytest.mark.parametrize(
    ("language", "states"),
    [
        ("zh-hans", {0: "已出完：第 1 名", 1: "都落：第 3 名", 2: "违规出完：第 4 名"}),
        ("ja", {0: "上がり：1 位", 1: "都落ち：3 位", 2: "反則上がり：4 位"}),
    ],
)
def test_penalised_seats_are_labelled_by_their_cause(language: str, states: dict[int, str]) -> None:
    table = engine.build_table({"preset": "standard"}, TABLE, THEN)
    assert table.round.penalised == (2, 1)
    with translation.override(language):
        view = presenter.table_view(table, show_hands=False)
    assert {s.seat: s.out_text for s in view.seats if s.place} == states
