"""The seat places in play.css are the ones the table helper computes (no drift)."""

from __future__ import annotations

from pathlib import Path

from daifugo_site.ui.templatetags.table import css_rules, seat_places

CSS = Path(__file__).resolve().parents[2] / "static" / "play" / "play.css"


def test_stylesheet_carries_every_generated_seat_rule() -> None:
    text = CSS.read_text(encoding="utf-8")
    for line in css_rules().splitlines():
        assert line in text


def test_every_seat_of_every_table_size_has_a_class() -> None:
    from types import SimpleNamespace as S

    classes = set()
    for n in range(2, 7):
        places = seat_places([S(seat=i, is_you=i == 1) for i in range(n)])
        classes |= {p.css_class for p in places.values()}
        assert places[1].order == 0 and places[1].side == "near"
    assert len(classes) == sum(range(2, 7))
    assert all(f".{c} " in css_rules() for c in classes)
