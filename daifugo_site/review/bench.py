"""Figures for the review: how long a match takes, and how stable its verdicts are.

    python -m daifugo_site.review.bench time [--rounds 3] [--seed 1] [--worlds 120]
    python -m daifugo_site.review.bench agree [--decisions 200] [--factor 10] [--jobs 2]

``time`` plays a 4-player standard match (every seat the intermediate heuristic), stores it
as a finished practice game in a fresh SQLite file and runs the real review job
(:func:`daifugo_site.review.services.run`: the computer-player pool, one decision at a time)
and prints the wall time. ``agree`` samples decisions from such matches and compares the
review's preferred move with the preferred move of a search given ``factor`` times the
worlds (its own seed), printing how often they agree and, when they differ, how many points
the longer search thinks the review's choice loses.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _match(seed: int, rounds: int) -> Any:
    from daifugo_site.play import thinking
    from rules_engine import Action, Match, RuleSet
    from rules_engine.ai import Budget

    m = Match.new(RuleSet.preset("standard"), 4, rounds, seed)
    i = 0
    while not m.over:
        if m.round.over:
            m = m.apply(Action.next_round())
            continue
        r = m.round
        s = [s for s in range(4) if r.owed[s]][0] if r.to_act < 0 else r.to_act
        m = m.apply(
            thinking.think(m.observe(s), "intermediate", f"b{seed}:{i}", Budget(playouts=1))
        )
        i += 1
    return m


def _setup(db: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "daifugo_site.settings.dev")
    os.environ["DAIFUGO_BENCH_DB"] = db
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = db
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def time_match(rounds: int, seed: int, worlds: int) -> dict[str, Any]:
    import asyncio

    with tempfile.TemporaryDirectory() as tmp:
        _setup(os.path.join(tmp, "bench.sqlite3"))
        from django.conf import settings

        settings.REVIEW_WORLDS = worlds
        from daifugo_site.play import computers
        from daifugo_site.play.models import Game
        from daifugo_site.review import services
        from daifugo_site.review.models import Review
        from daifugo_site.review.sources import Source

        m = _match(seed, rounds)
        game = Game.objects.create(
            owner="bench",
            rules=m.rules.to_json(),
            players=4,
            rounds=rounds,
            seed=seed,
            seats=[{"kind": "human"}] + [{"kind": "computer", "level": "intermediate"}] * 3,
            actions=[a.to_json() for a in m.log],
            version=len(m.log),
            scores=list(m.scores),
            status=Game.Status.FINISHED,
        )
        review = services.review_for(Source(game, 0, True))

        async def go() -> float:
            # Warm the pool first (process start-up is paid once per server, not per review).
            from daifugo_site.play import thinking

            await computers.pool().run("warm", thinking.warm_up)
            started = time.monotonic()
            await services.run(review.pk)
            return time.monotonic() - started

        seconds = asyncio.run(go())
        computers.pool().shutdown()
        done = Review.objects.get(pk=review.pk)
        return {
            "rounds": rounds,
            "decisions": done.total,
            "mistakes": sum(1 for it in done.items if it["mistake"]),
            "exact": sum(1 for it in done.items if it.get("verdict")),
            "worlds": worlds,
            "seconds": round(seconds, 1),
            "processes": settings.PLAY_COMPUTER_PROCESSES,
        }


def _pair(args: tuple[Any, Any, Any, str, int, int]) -> tuple[str, str, float, bool, bool, int]:
    from daifugo_site.review import analysis

    obs, action, pending, seed, worlds, factor = args
    short = analysis.review_decision(obs, action, seed, analysis.Budget(worlds=worlds), pending)
    long = analysis.review_decision(
        obs, action, f"long:{seed}", analysis.Budget(worlds=worlds * factor, settle=False), pending
    )
    # What the longer search thinks the review's choice costs (same candidates, so the
    # long search has a figure for it).
    regret = long["means"][long["best"]] - long["means"].get(short["best"], long["made_mean"])
    return short["best"], long["best"], regret, short["mistake"], long["mistake"], short["worlds"]


def agree(decisions: int, factor: int, jobs: int, worlds: int, seed: int) -> dict[str, Any]:
    from daifugo_site.review import analysis

    rng = random.Random(seed)
    pool: list[tuple[Any, Any, Any, str, int, int]] = []
    match_seed = seed * 1000
    while len(pool) < decisions * 3:
        m = _match(match_seed, 3)
        for d in analysis.decisions(m.to_record(), 0):
            tag = f"agree:{match_seed}:{d.index}"
            pool.append((d.obs, d.action, d.pending, tag, worlds, factor))
        match_seed += 1
    sample = rng.sample(pool, decisions)
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(_pair, sample, chunksize=4))
    same = sum(1 for short, long, *_ in results if short == long)
    regrets = [cost for short, long, cost, *_ in results if short != long]
    flagged = [r for r in results if r[3]]
    return {
        "decisions": decisions,
        "worlds": worlds,
        "factor": factor,
        "agree": same,
        "agree_share": round(same / decisions, 3),
        "mean_regret_when_differ": round(sum(regrets) / len(regrets), 3) if regrets else 0.0,
        "regret_over_0_25": sum(1 for c in regrets if c > 0.25),
        # Mistakes the review flags, and how many the longer search flags too (and the
        # ones only the longer search flags): the review's false and missed mistakes.
        "mistakes": len(flagged),
        "mistakes_confirmed": sum(1 for r in flagged if r[4]),
        "mistakes_missed": sum(1 for r in results if r[4] and not r[3]),
        "mean_worlds": round(sum(r[5] for r in results) / len(results), 1),
        "seconds": round(time.monotonic() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m daifugo_site.review.bench")
    sub = parser.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("time")
    t.add_argument("--rounds", type=int, default=3)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--worlds", type=int, default=120)
    a = sub.add_parser("agree")
    a.add_argument("--decisions", type=int, default=200)
    a.add_argument("--factor", type=int, default=10)
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("--worlds", type=int, default=120)
    a.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.cmd == "time":
        out = time_match(args.rounds, args.seed, args.worlds)
    else:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "daifugo_site.settings.dev")
        import django

        django.setup()
        out = agree(args.decisions, args.factor, args.jobs, args.worlds, args.seed)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
