"""A small inline SVG line chart of a rating's history (no JavaScript, no external file)."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 320
HEIGHT = 120
PAD = 8


@dataclass(frozen=True)
class Chart:
    points: str  # the polyline's points attribute
    low: int
    high: int
    count: int
    width: int = WIDTH
    height: int = HEIGHT


def rating_chart(values: list[float]) -> Chart | None:
    """The chart of ``values`` (oldest first), or None with fewer than two.

    >>> c = rating_chart([1500, 1600, 1550])
    >>> c.low, c.high, c.count, c.points.split()[0]
    (1500, 1600, 3, '8.0,112.0')
    """
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    points = " ".join(
        f"{PAD + i * step:.1f},{HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD):.1f}"
        for i, v in enumerate(values)
    )
    return Chart(points, round(low), round(high), len(values))
