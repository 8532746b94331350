"""``python -m rules_engine bench``: seeded random rounds, three figures."""

import random
import subprocess
import sys

from engine_testlib import REPO

from rules_engine import Round, RuleSet
from rules_engine.bench import play_random_round, run_bench


def test_play_random_round_plays_to_the_end():
    r = Round.deal(RuleSet.preset("standard"), 4, 1)
    end, moves, gens = play_random_round(r, random.Random(1))
    assert end.over
    assert moves == gens == len(end.actions())
    assert moves >= 14  # seat 0 alone holds 14 cards


def test_run_bench_reports_three_rates():
    figures = run_bench("party", 3, 5, 2)
    assert [label for label, _ in figures] == ["games/s", "moves/s", "legal/s"]
    assert all(value > 0 for _, value in figures)


def test_bench_command_prints_one_figure_a_line():
    proc = subprocess.run(
        [sys.executable, "-m", "rules_engine", "bench", "--games", "5", "--players", "3"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    lines = proc.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines] == ["games/s", "moves/s", "legal/s"]
    assert all(float(line.split()[1]) > 0 for line in lines)
