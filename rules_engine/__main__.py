"""Command line: ``python -m rules_engine scenarios|bench|arena ...``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules_engine")
    sub = parser.add_subparsers(dest="command", required=True)

    p_sc = sub.add_parser("scenarios", help="run scenario files (SCENARIOS.md)")
    p_sc.add_argument("paths", nargs="+")

    p_bench = sub.add_parser("bench", help="random full rounds: games/s, moves/s, legal/s")
    p_bench.add_argument("--preset", default="standard")
    p_bench.add_argument("--players", type=int, default=4)
    p_bench.add_argument("--games", type=int, default=2000)
    p_bench.add_argument("--seed", type=int, default=1)

    args = parser.parse_args(argv)
    if args.command == "scenarios":
        from .scenarios import run_paths

        passed, failed = run_paths(args.paths, sys.stdout)
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0
    if args.command == "bench":
        from .bench import run_bench

        for label, value in run_bench(args.preset, args.players, args.games, args.seed):
            print(f"{label} {value:.1f}")
        return 0
    return 2  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
