"""Command line: ``python -m rules_engine scenarios|bench|arena|native ...`` (the UECda
client, which plays a server's match, is its own package beside the engine: ``python -m
uecda``)."""

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

    p_arena = sub.add_parser(
        "arena", help="duplicate tournament between computer players (rules_engine.ai)"
    )
    p_arena.add_argument(
        "--players",
        required=True,
        help="comma separated levels, one per seat: beginner, intermediate, advanced "
        "(advanced:MS or advanced:pN sets its budget)",
    )
    p_arena.add_argument("--games", type=int, default=10, help="deals, each played n times")
    p_arena.add_argument("--seed", default="1")
    p_arena.add_argument("--preset", default="standard")
    p_arena.add_argument("--hand-size", type=int, default=None, help="e.g. 13 for the 1v1 game")
    p_arena.add_argument("--budget-ms", type=float, default=None, help="advanced: ms per move")
    p_arena.add_argument(
        "--rounds", type=int, default=None, help="rounds per match (default 3, or 1 at 2 players)"
    )
    p_arena.add_argument("--json", action="store_true", help="print one JSON object")
    p_arena.add_argument(
        "--keep-going", action="store_true", help="record errors and go on instead of stopping"
    )
    p_arena.add_argument("--progress", action="store_true", help="a line per game on stderr")

    p_native = sub.add_parser(
        "native", help="the engine compiled with mypyc: build, clean or status (native.py)"
    )
    p_native.add_argument("action", choices=("build", "clean", "status"))

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
    if args.command == "arena":
        return _arena(args)
    if args.command == "native":
        from . import native

        if args.action == "build":
            native.build()
            print("rules_engine: compiled with mypyc (RULES_ENGINE_PURE=1 runs the sources)")
        elif args.action == "clean":
            native.clean()
            print("rules_engine: pure Python")
        else:
            print(native.kind())
        return 0
    return 2  # pragma: no cover


def _arena(args: argparse.Namespace) -> int:
    import json

    from .ai.arena import ArenaError, ArenaResult, run_arena
    from .rules import RuleSet

    overrides = {"hand_size": args.hand_size} if args.hand_size is not None else {}
    rules = RuleSet.preset(args.preset, **overrides)

    def progress(g: int, result: ArenaResult) -> None:
        means = ", ".join(f"{k.name} {k.mean_points:.3f}" for k in result.kinds)
        print(f"game {g + 1}: {means} ({result.elapsed_s:.0f}s)", file=sys.stderr, flush=True)

    try:
        result = run_arena(
            [p for p in args.players.split(",") if p.strip()],
            games=args.games,
            seed=args.seed,
            rounds=args.rounds,
            budget_ms=args.budget_ms,
            rules=rules,
            strict=not args.keep_going,
            progress=progress if args.progress else None,
        )
    except (ArenaError, ValueError) as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.table())
        for error in result.errors:
            print(error)
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
