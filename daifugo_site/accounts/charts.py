"""A small inline SVG line chart of a rating's history (no JavaScript, no external file),
with its two axes: the rating (lowest and highest written at the ends) up the left, the
games along the bottom (the first and the last numbered)."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 320
HEIGHT = 150
PAD = 8
#: Room for the rating's numbers and title left of the plot, and the games' below it.
LEFT = 56
BOTTOM = 36


@dataclass(frozen=True)
class Chart:
    points: str  # the polyline's points attribute
    low: int
    high: int
    count: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT  # the plot's edges, where the axes are drawn
    right: int = WIDTH - PAD
    top: int = PAD
    bottom: int = HEIGHT - BOTTOM

    @property
    def middle_y(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def middle_x(self) -> float:
        return (self.left + self.right) / 2


def rating_chart(values: list[float]) -> Chart | None:
    """The chart of ``values`` (oldest first), or None with fewer than two.

    >>> c = rating_chart([1500, 1600, 1550])
    >>> c.low, c.high, c.count, c.points.split()[0]
    (1500, 1600, 3, '56.0,114.0')
    """
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    left, right, top, bottom = LEFT, WIDTH - PAD, PAD, HEIGHT - BOTTOM
    step = (right - left) / (len(values) - 1)
    points = " ".join(
        f"{left + i * step:.1f},{bottom - (v - low) / span * (bottom - top):.1f}"
        for i, v in enumerate(values)
    )
    return Chart(points, round(low), round(high), len(values))
