"""The tournament's tally: UECda points, intervals, places by the class brought in."""

from rules_engine.uecda.client import GameRecord
from rules_engine.uecda.tournament import summary


def test_summary_counts_points_places_and_previous_classes():
    records = [
        GameRecord(0, (0, 1, 2, 3, 4), None),
        GameRecord(0, (1, 2, 3, 4, 0), 0),
        GameRecord(0, (1, 0, 2, 3, 4), 4),
        GameRecord(0, (0, 1, 2, 3, 4), 1, rejected=1),
    ]
    s = summary(records, batch=2)
    assert s["games"] == 4
    assert s["mean_points"] == (5 + 1 + 4 + 5) / 4
    assert s["ci95"][0] < s["mean_points"] < s["ci95"][1]
    assert s["batch_means_ci95"] is not None
    assert (s["first"], s["last"]) == (0.5, 0.25)
    assert s["by_previous_place"] == {"none": [1, 5.0], "1": [1, 1.0], "5": [1, 4.0], "2": [1, 5.0]}
    assert s["rejected"] == 1
