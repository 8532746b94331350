"""Measure a level against UECda programs: ``python -m uecda.tournament``.

Starts a UECda server and four opponent clients from the paths given (nothing of theirs is
part of this project: build them elsewhere, and bind the server to 127.0.0.1), seats this
project's client as the fifth player, plays the match and prints one JSON object: games,
mean points (UECda's 5/4/3/2/1, parity 3.0) with a normal 95% interval, a batch-means
interval (the server re-seats every 3 games and resets classes every 100, so games are
correlated), first and last place rates, and the mean by the class brought into the game.

    python -m uecda.tournament --server ../fuji/out/server \\
        --opponent ../fuji/out/client --games 300 --port 42602 --level advanced

With ``--program PATH`` the fifth seat is another UECda program instead of this project's
client (to measure one program against others, e.g. FujiGokoro retrained on a larger record
against FujiGokoro as built): it is started like the opponents, and its games are read from
the server's record when the match ends (``--server-log``, by default ``tournament.dat`` in
the work folder).

``python -m uecda.tournament pool --name NAME RECORD...`` reads the server records of several
runs fixed beforehand and prints them as one measurement: the same figures over every game,
each run's mean, and batch means taken within runs (a batch never spans two matches).
``python -m uecda.tournament transitions RECORD...`` prints from such records how often a
player of each class finished at each place, as the rows of ``rules_engine.ai.outlook``'s
transition tables.

With ``--server-log FILE`` the server also gets ``-l FILE`` (FujiGokoro's server writes the
match's record there when the match ends; ``python -m uecda.train_policy`` reads
such records), and it is given time to write it.

The server is started as ``SERVER -p PORT -g GAMES`` and each opponent as
``OPPONENT -h 127.0.0.1 -p PORT -n NAME`` (the options of UECda's reference programs), in
``--workdir`` (default: the folder above the server's, where FujiGokoro finds its
parameters).

Measure on an otherwise idle machine, one tournament at a time: FujiGokoro's search runs a
thread per core and stops on elapsed wall-clock time, so load makes it weaker (this
project's client budgets CPU time, which load does not change).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rules_engine.ai import Budget

from .client import CLASS_RESET_GAMES, GameRecord, run_client

Z95 = 1.959964
#: Seconds the server is given to write its record after the last game.
SERVER_LOG_WAIT_S = 30


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval of independent values.

    >>> interval([1, 2, 3, 4, 5])
    (3.0, 1.614, 4.386)
    """
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return round(mean, 3), mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return round(mean, 3), round(mean - half, 3), round(mean + half, 3)


def batch_means(values: Sequence[float], batch: int) -> tuple[float, float] | None:
    """95% interval of the mean from the means of consecutive batches (``None`` with
    fewer than two whole batches).

    >>> batch_means([1, 5] * 10, 2)
    (3.0, 3.0)
    """
    return interval_of_batches(batch_list(values, batch))


def batch_list(values: Sequence[float], batch: int) -> list[float]:
    """The means of the whole consecutive batches of ``values`` (a last partial one is
    left out).

    >>> batch_list([1, 5, 3, 3, 9], 2)
    [3.0, 3.0]
    """
    return [sum(values[i : i + batch]) / batch for i in range(0, len(values) - batch + 1, batch)]


def interval_of_batches(means: Sequence[float]) -> tuple[float, float] | None:
    """95% interval of the mean from batch means (``None`` with fewer than two)."""
    if len(means) < 2:
        return None
    _, low, high = interval(means)
    return low, high


def summary(records: Sequence[GameRecord], batch: int = 12) -> dict[str, Any]:
    points = [float(r.points) for r in records]
    if not points:
        return {"games": 0}
    mean, low, high = interval(points)
    by_class: dict[str, list[float]] = {}
    for r in records:
        key = "none" if r.previous_class is None else str(r.previous_class + 1)
        by_class.setdefault(key, []).append(r.points)
    result: dict[str, Any] = {
        "games": len(points),
        "mean_points": mean,
        "ci95": [low, high],
        "batch_means_ci95": batch_means(points, batch),
        "batch": batch,
        "first": round(sum(r.place == 1 for r in records) / len(records), 3),
        "last": round(sum(r.place == 5 for r in records) / len(records), 3),
        "by_previous_place": {
            k: [len(v), round(sum(v) / len(v), 3)] for k, v in sorted(by_class.items())
        },
        "rejected": sum(r.rejected for r in records),
    }
    times = [t for r in records for t in r.move_ms]
    if times:
        result["move_ms"] = move_times(times)
    return result


def move_times(times: Sequence[float]) -> dict[str, float]:
    """How long the decisions took (milliseconds): their number, median, 95th percentile
    and longest, by nearest rank.

    >>> move_times([float(t) for t in range(1, 101)])
    {'decisions': 100, 'p50': 50.0, 'p95': 95.0, 'max': 100.0}
    """
    ordered = sorted(times)

    def rank(q: float) -> float:
        return round(ordered[max(0, math.ceil(q * len(ordered)) - 1)], 1)

    return {"decisions": len(ordered), "p50": rank(0.50), "p95": rank(0.95), "max": rank(1.0)}


def records_of(text: str, name: str) -> list[GameRecord]:
    """The games of the player called ``name`` in a server's record (FujiGokoro's server,
    ``-l``): its header names the players, each game's ``class`` line gives every player's
    class coming in and ``result`` the classes it made (0 is the first place). Classes are
    reset every 100 games, so the first game of each hundred is counted as having none.

    >>> text = "player a b\\n/*\\nclass 0 1\\nresult 1 0\\n*/\\n/*\\nclass 1 0\\nresult 1 0\\n*/"
    >>> [(r.place, r.previous_class) for r in records_of(text, "b")]
    [(1, None), (1, 0)]
    """
    header = re.search(r"^player[ \t]+(.*)$", text, flags=re.M)
    names = header.group(1).split() if header else []
    if name not in names:
        raise ValueError(f"no player {name!r} in the record (players: {names})")
    me = names.index(name)
    records = []
    for reset, classes, before in _games(text):
        records.append(
            GameRecord(
                my_player=me,
                result=tuple(sorted(range(len(classes)), key=classes.__getitem__)),
                previous_class=before[me] if before and not reset else None,
            )
        )
    return records


def _games(text: str) -> Iterator[tuple[bool, list[int], list[int]]]:
    """Each game of a server record that has a ``result``: whether it is the first of a
    hundred (the server's reset: classes start again, no exchange), every player's class
    it made (``result``) and every player's class coming in (``class``; empty if none)."""
    for index, block in enumerate(re.findall(r"/\*(.*?)\*/", text, flags=re.S)):
        lines = dict(line.strip().partition(" ")[::2] for line in block.strip().splitlines())
        if "result" not in lines:
            continue
        result = [int(x) for x in lines["result"].split()]
        before = [int(x) for x in lines.get("class", "").split()]
        yield index % CLASS_RESET_GAMES == 0, result, before


def class_transitions(texts: Sequence[str], players: int = 5) -> list[list[int]]:
    """How often a player of each class (rows: the class brought into a game from the one
    before, 0 = first) finished each game at each place (columns), over every player of the
    server records ``texts`` (one a run). The first game of every hundred (the server
    resets the classes there, and deals with no exchange) is left out.

    >>> one = "/*\\nclass 0 1\\nresult 0 1\\n*/\\n"
    >>> swap = "/*\\nclass 0 1\\nresult 1 0\\n*/\\n"
    >>> class_transitions([one + one + swap], players=2)
    [[1, 1], [1, 1]]
    """
    counts = [[0] * players for _ in range(players)]
    for text in texts:
        for reset, places, before in _games(text):
            if reset or not before:
                continue
            for c, p in zip(before, places, strict=True):
                counts[c][p] += 1
    return counts


def transitions_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m uecda.tournament transitions")
    parser.add_argument("records", nargs="+", type=Path, help="server records (-l), one a run")
    args = parser.parse_args(argv)
    counts = class_transitions([p.read_text(encoding="latin-1") for p in args.records])
    print(f"# {sum(map(sum, counts))} games of a player; rows: class brought in, first to last")
    for row in counts:
        total = sum(row) or 1
        print("(" + ", ".join(f"{c / total:.4f}" for c in row) + f"),  # {sum(row)}")
    return 0


def pooled(runs: Sequence[Sequence[GameRecord]], batch: int = 12) -> dict[str, Any]:
    """Several runs as one measurement: :func:`summary` over all their games, each run's
    mean points, and the batch-means interval from batches cut within each run.

    >>> a = [GameRecord(0, (0, 1, 2, 3, 4), None)] * 4   # four wins: 5 points each
    >>> b = [GameRecord(0, (1, 2, 3, 4, 0), None)] * 4   # four last places: 1 point each
    >>> s = pooled([a, b], batch=2)
    >>> s["games"], s["mean_points"], s["runs"], s["batch_means_ci95"]
    (8, 3.0, [5.0, 1.0], (0.737, 5.263))
    """
    everything = [r for run in runs for r in run]
    result = summary(everything, batch)
    batches = [m for run in runs for m in batch_list([float(r.points) for r in run], batch)]
    result["batch_means_ci95"] = interval_of_batches(batches)
    result["runs"] = [round(sum(r.points for r in run) / len(run), 3) for run in runs if run]
    return result


def pool_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m uecda.tournament pool")
    parser.add_argument("--name", required=True, help="the player's name in the records")
    parser.add_argument("--batch", type=int, default=12, help="games per batch (batch means)")
    parser.add_argument("records", nargs="+", type=Path, help="server records (-l), one a run")
    args = parser.parse_args(argv)
    runs = [records_of(p.read_text(encoding="latin-1"), args.name) for p in args.records]
    print(json.dumps(pooled(runs, args.batch)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["pool"]:
        return pool_main(argv[1:])
    if argv[:1] == ["transitions"]:
        return transitions_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m uecda.tournament")
    parser.add_argument("--server", required=True, type=Path)
    parser.add_argument("--opponent", required=True, type=Path, action="append")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--port", type=int, default=42485)
    parser.add_argument("--level", default="advanced")
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--batch", type=int, default=12, help="games per batch (batch means)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--server-log", type=Path, default=None, help="passed to the server as -l (its record)"
    )
    parser.add_argument(
        "--program", type=Path, default=None, help="another UECda client in the fifth seat"
    )
    args = parser.parse_args(argv)
    opponents = list(args.opponent)
    if len(opponents) == 1:
        opponents *= 4
    if len(opponents) != 4:
        parser.error("give one --opponent (used four times) or four")
    workdir = args.workdir or args.server.resolve().parent.parent
    if args.program is not None and args.server_log is None:
        args.server_log = workdir / "tournament.dat"
    budget = None
    if args.budget_ms is not None or args.playouts is not None:
        budget = Budget(time_ms=args.budget_ms, playouts=args.playouts)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        command = [str(args.server.resolve()), "-p", str(args.port), "-g", str(args.games)]
        if args.server_log is not None:
            command += ["-l", str(args.server_log.resolve())]
        procs.append(
            subprocess.Popen(
                command,
                cwd=workdir,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        time.sleep(1.0)
        for i, path in enumerate(opponents):
            procs.append(
                subprocess.Popen(
                    [str(path.resolve()), "-h", "127.0.0.1", "-p", str(args.port)]
                    + ["-n", f"{path.name}{i + 1}"],
                    cwd=workdir,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        time.sleep(0.5)
        if args.program is not None:
            procs.append(
                subprocess.Popen(
                    [str(args.program.resolve()), "-h", "127.0.0.1", "-p", str(args.port)]
                    + ["-n", "program"],
                    cwd=workdir,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            procs[0].wait()  # the match: the server writes its record as it ends
            records = records_of(args.server_log.read_text(encoding="latin-1"), "program")
        else:
            records = run_client(
                "127.0.0.1", args.port, args.level, budget=budget, seed=args.seed, name=args.level
            )
        if args.server_log is not None and args.program is None:
            # The record is written as the server finishes the match.
            try:
                procs[0].wait(SERVER_LOG_WAIT_S)
            except subprocess.TimeoutExpired:
                print("the server did not finish; its record may be incomplete", file=sys.stderr)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(10)
    print(json.dumps(summary(records, args.batch)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
