"""``python -m uecda``: play a UECda server's match (protocol 20070) with a computer level.

The client lives beside the rules engine, not inside it: the engine is the rules; this is
an application of the rules and the computer players (``rules_engine.ai``).
"""

from __future__ import annotations

import argparse
import json
import sys

from rules_engine.ai import Budget

from . import run_client


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uecda", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=42485)
    parser.add_argument("--level", default="advanced", help="beginner, intermediate, advanced")
    parser.add_argument("--budget-ms", type=float, default=None, help="CPU ms per move")
    parser.add_argument("--playouts", type=int, default=None, help="advanced: playouts per move")
    parser.add_argument("--name", default=None, help="name sent to the server (15 chars)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no line per game on stderr")
    args = parser.parse_args(argv)
    budget = None
    if args.budget_ms is not None or args.playouts is not None:
        budget = Budget(time_ms=args.budget_ms, playouts=args.playouts)
    try:
        records = run_client(
            args.host,
            args.port,
            args.level,
            budget=budget,
            name=args.name,
            seed=args.seed,
            quiet=args.quiet,
        )
    except (OSError, ValueError) as exc:
        print(f"uecda: {exc}", file=sys.stderr)
        return 1
    points = [r.points for r in records]
    summary = {
        "games": len(records),
        "mean_points": sum(points) / len(points) if points else None,
        "places": [r.place for r in records],
        "previous_classes": [r.previous_class for r in records],
        "rejected": sum(r.rejected for r in records),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
