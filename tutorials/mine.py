"""The puzzle miner: ``python -m tutorials.mine [--games N] [--seed S] [--out FILE]``.

Plays seeded games between the computer players across the presets and keeps positions
that make a puzzle: every hand is shown (the puzzle says so), the player to act can force a
place (the best it can force, 0 = out first) against every defence, and exactly one first
move does it. Each kept position is

- replayed through the engine as a tutor table (the dealt hands, seat rotated so the
  solver's hero is seat 0, and every action of the game so far), re-proven on the rebuilt
  table, and checked by the tutor's own validator (:func:`tutorials.validation.validate_lesson`);
- deduplicated up to suit symmetry (:func:`canonical_key`);
- tagged with themes read from the engine's effects along the solution line (the hero's
  winning moves, the defenders' most stubborn answers: :meth:`tutorials.engine.Oracle.defence`);
- given a length (the hero's moves in the line) and a starting rating from its difficulty.

The solver's work per position is bounded (``NODE_LIMIT``): a position it cannot settle
quickly is skipped, so mining stays fast. Output: JSON lines, gzipped
(``tutorials/content/mined.jsonl.gz`` by default, which ``load_site_content`` loads).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules_engine import Move, Refusal, Round, RuleSet, observe
from rules_engine.ai import make_player
from rules_engine.cards import NUM_RANKS, RANK_MASKS, count, format_cards, jokers
from rules_engine.effects import (
    CLEARED,
    EIGHT_CUT,
    JBACK,
    MIYAKO_OCHI,
    NUMBER_LOCK,
    PENALISED,
    REVOLUTION,
    SPADE3_RETURN,
    SUIT_LOCK,
    WENT_OUT,
)
from rules_engine.moves import GROUP, SINGLE
from rules_engine.solver import SolverLimit, solve
from rules_engine.state import EXCHANGE, PLAY

from . import engine

#: The presets mined, with the table sizes played.
PRESETS: dict[str, tuple[int, ...]] = {
    "standard": (4, 3),
    "party": (4, 5),
    "classic": (4, 3),
    "basic": (3, 4),
}
#: Positions searched per solver question; a position needing more is skipped.
NODE_LIMIT = 6_000
#: Cards left in all hands together, at most, for a position to be tried.
MAX_CARDS = 16
#: Puzzles kept from one game at most (positions of one game are alike).
PER_GAME = 3
#: Every theme the miner can find (the page's filter names them).
THEMES = (
    "eight-cut",
    "revolution",
    "eleven-back",
    "lock",
    "spade-3",
    "forbidden-finish",
    "miyako-ochi",
    "pass-until-clear",
    "counting",
    "endgame",
)
DEFAULT_OUT = Path(__file__).resolve().parent / "content" / "mined.jsonl.gz"


@dataclass
class Candidate:
    preset: str
    players: int
    seed: int
    table: dict[str, Any]
    round: Round  # the puzzle position (hero = seat 0 to act)


# -- games -------------------------------------------------------------------------------------


def _move_step(move: Move) -> dict[str, Any]:
    if move.is_pass:
        return {"pass": True}
    cards, form = engine.split_move(str(move))
    step: dict[str, Any] = {"play": cards}
    if form:
        step["form"] = form
    return step


def play_game(preset: str, players: int, seed: int) -> Iterator[tuple[Round, list[Any], Any]]:
    """Play one seeded game; yield ``(round, actions so far, start)`` before each play.

    ``actions`` are (seat, tutor-table step) pairs; ``start`` the dealt round. Half the
    games are a later round (a ``previous`` order: exchange and miyako-ochi apply)."""
    rules = RuleSet.preset(preset)
    rng = random.Random(seed)
    previous = None
    if seed % 2:
        previous = list(range(players))
        rng.shuffle(previous)
    r = Round.deal(rules, players, seed=f"mine-{preset}-{seed}", previous=previous)
    start = r
    levels = ["intermediate"] * players
    for i in range(players):
        if rng.random() < 0.3:
            levels[i] = "beginner"
    bots = [make_player(level) for level in levels]
    actions: list[tuple[int, dict[str, Any]]] = []
    for _guard in range(2000):
        if r.phase == EXCHANGE:
            seat = next(s for s in range(players) if r.owed[s] > 0)
            cards = bots[seat].choose_return(observe(r, seat), rng)
            nxt = r.give(seat, cards)
            assert not isinstance(nxt, Refusal), nxt
            actions.append((seat, {"give": format_cards(cards), "by": seat}))
            r = nxt
            continue
        if r.phase != PLAY:
            return
        yield r, actions, start
        seat = r.to_act
        move = bots[seat].choose_move(observe(r, seat), rng)
        nxt = r.apply(move)
        assert not isinstance(nxt, Refusal), nxt
        actions.append((seat, _move_step(move)))
        r = nxt


def rotated_table(start: Round, actions: list[tuple[int, dict[str, Any]]], hero: int) -> dict:
    """The tutor table reaching the position, seats turned so ``hero`` is seat 0."""
    n = start.n

    def seat(s: int) -> int:
        return (s - hero) % n

    # The dealt hands are the hands before the exchange's automatic gifts: undo them.
    hands = list(start.hands)
    for giver, receiver, cards, _auto in start.exchange:
        hands[receiver] &= ~cards
        hands[giver] |= cards
    table: dict[str, Any] = {
        "hands": [format_cards(hands[(s + hero) % n]) for s in range(n)],
        "leader": seat(start.first_leader),
    }
    if start.previous is not None:
        table["previous"] = [seat(s) for s in start.previous]
    plays = []
    for actor, step in actions:
        step = dict(step)
        if "by" in step:
            step["by"] = seat(actor)
        plays.append(step)
    table["plays"] = plays
    return table


# -- the position as a puzzle ------------------------------------------------------------------


def best_unique(r: Round, node_limit: int = NODE_LIMIT) -> tuple[int, list[Move], int] | None:
    """``(place, winning first moves, nodes)`` for the best place seat 0 can force, or None
    (not settled within the budget, or the place is the worst one anyway)."""
    nodes = 0
    for place in range(r.n - 1):
        try:
            sol = solve(r, 0, place, node_limit)
        except SolverLimit:
            return None
        nodes += sol.nodes
        if sol.proven:
            return place, sol.winning_moves, nodes
        if nodes > 3 * node_limit:
            return None
    return None


def _effect_themes(after: Round) -> set[str]:
    themes: set[str] = set()
    effects = after.effects
    # A revolution, 11-back or lock started by a play that takes its player out matters to
    # the others only: not what that player's puzzle is about.
    went_out = any(e.kind in (WENT_OUT, PENALISED) for e in effects)
    for e in effects:
        if e.kind == EIGHT_CUT:
            themes.add("eight-cut")
        elif e.kind == REVOLUTION and not went_out:
            themes.add("revolution")
        elif e.kind == JBACK and e.reason == "played" and not went_out:
            themes.add("eleven-back")
        elif e.kind in (SUIT_LOCK, NUMBER_LOCK) and not went_out:
            themes.add("lock")
        elif e.kind == SPADE3_RETURN or (e.kind == CLEARED and e.reason == "spade3"):
            themes.add("spade-3")
        elif e.kind == PENALISED:
            themes.add("forbidden-finish")
        elif e.kind == MIYAKO_OCHI:
            themes.add("miyako-ochi")
    return themes


def solution_line(r: Round, place: int, first: Move, oracle: engine.Oracle) -> list[dict]:
    """The line: seat 0 plays ``first`` then its first winning move each turn, the others
    their most stubborn defence (the tutor's own), until seat 0's place is settled."""
    line: list[dict[str, Any]] = []
    move = first
    for _ in range(60):
        seat = r.to_act
        nxt = r.apply(move)
        assert not isinstance(nxt, Refusal), nxt
        line.append({"seat": seat, "move": str(move), "m": move, "r": (r, nxt)})
        r = nxt
        if oracle.decided(r) is not None or r.phase != PLAY or oracle.lost(r):
            break
        if r.to_act == engine.LEARNER:
            winning = oracle.winning_moves(r)
            if not winning:  # pragma: no cover - the line is proven
                break
            move = winning[0]
        else:
            move = oracle.defence(r)
    return line


def themes_of(r: Round, line: list[dict], winning: Move) -> list[str]:
    themes: set[str] = set()
    for step in line:
        _before, after = step["r"]
        hero = step["seat"] == engine.LEARNER
        themes |= _effect_themes(after)
        move_str = step["move"]
        if hero and move_str == "pass":
            themes.add("pass-until-clear")
        if hero and move_str != "pass" and _counted(after, step["m"]):
            themes.add("counting")
    # Going out with a forbidden card was there to be tempted by: a legal first move that
    # empties the hand but is penalised.
    for move in r.legal_moves():
        if move == winning:
            continue
        nxt = r.apply(move)
        if not isinstance(nxt, Refusal) and any(
            e.kind == PENALISED and e.seat == engine.LEARNER for e in nxt.effects
        ):
            themes.add("forbidden-finish")
    if not themes:
        themes.add("endgame")
    return sorted(themes)


def _counted(after: Round, move: Move) -> bool:
    """The play cannot be answered because the stronger cards are gone: some card of a
    stronger rank was played before, and the others no longer hold enough of any stronger
    rank (nor a joker) to beat it. Knowing that takes counting the cards out; a play of
    the top rank, or one nobody answers for want of cards, is not counting."""
    if move.form not in (SINGLE, GROUP) or move.rank < 0 or move.jokers:
        return False
    others = 0
    for seat, hand in enumerate(after.hands):
        if seat != engine.LEARNER:
            others |= hand
    if jokers(others):
        return False
    mine = after.hands[engine.LEARNER]
    reversed_order = after.revolution != after.jback
    stronger = range(move.rank) if reversed_order else range(move.rank + 1, NUM_RANKS)
    gone = False
    for rank in stronger:
        held = (others & RANK_MASKS[rank]).bit_count()
        if held >= move.size:
            return False
        if held + (mine & RANK_MASKS[rank]).bit_count() < 4:
            gone = True
    return gone


def rating_for(hero_moves: int, wrong: int, nodes: int) -> int:
    """A starting rating from difficulty: longer lines, more tempting wrong first moves and
    a bigger proof make a harder puzzle."""
    value = 900 + 110 * (hero_moves - 1) + 55 * min(wrong, 8) + 45 * math.log2(max(nodes, 1))
    return int(max(600, min(2400, round(value / 10) * 10)))


_SUIT_PERMS = list(itertools.permutations(range(4)))


def _permute(cards: int, perm: tuple[int, ...]) -> int:
    out = cards & ~((1 << 52) - 1)  # jokers unchanged
    for i in range(52):
        if cards >> i & 1:
            out |= 1 << ((i & ~3) | perm[i & 3])
    return out


def _permute_suits_mask(mask: int, perm: tuple[int, ...]) -> int:
    return sum(1 << perm[s] for s in range(4) if mask >> s & 1)


def canonical_key(preset: str, place: int, r: Round) -> Hashable:
    """The position up to suit symmetry (the spade is special when the spade-3 rule is on,
    the diamond 3 is not any more once play started)."""
    perms = _SUIT_PERMS
    if r.rules.spade3_return:
        perms = [p for p in perms if p[0] == 0]
    best = None
    top = r.top
    for perm in perms:
        key = (
            tuple(_permute(h, perm) for h in r.hands),
            (_permute(top.cards, perm), top.form) if top is not None else None,
            _permute_suits_mask(r.lock, perm),
        )
        if best is None or key < best:
            best = key
    return (
        preset,
        place,
        best,
        r.to_act,
        r.last,
        r.passed,
        r.revolution,
        r.jback,
        r.streak,
        r.nlock,
        r.out,
        r.penalised,
    )


def make_puzzle(c: Candidate, node_limit: int = NODE_LIMIT) -> dict[str, Any] | None:
    """The puzzle record of a candidate position, or None if it is not one."""
    r = c.round
    legal = r.legal_moves()
    if len(legal) < 2:
        return None
    found = best_unique(r, node_limit)
    if found is None:
        return None
    place, winning, nodes = found
    if len(winning) != 1:
        return None
    first = winning[0]
    oracle = engine.Oracle(place, node_limit=20 * node_limit)
    try:
        line = solution_line(r, place, first, oracle)
        themes = themes_of(r, line, first)
    except SolverLimit:
        return None
    hero_moves = sum(1 for step in line if step["seat"] == engine.LEARNER)
    wrong = len(legal) - 1
    return {
        "preset": c.preset,
        "players": c.players,
        "seed": c.seed,
        "table": c.table,
        "place": place,
        "solution": str(first),
        "line": [[step["seat"], step["move"]] for step in line],
        "themes": themes,
        "length": hero_moves,
        "wrong": wrong,
        "nodes": nodes,
        "rating": rating_for(hero_moves, wrong, nodes),
    }


def candidates(preset: str, players: int, seed: int) -> Iterator[Candidate]:
    kept_seats: dict[int, int] = {}
    for r, actions, start in play_game(preset, players, seed):
        left = sum(count(h) for h in r.hands)
        if left > MAX_CARDS or kept_seats.get(r.to_act, 0) >= 2:
            continue
        if len(r.legal_moves()) < 2:
            continue
        hero = r.to_act
        table = rotated_table(start, actions, hero)
        try:
            built = engine.build_table({"preset": preset}, table)
        except engine.TableError:  # pragma: no cover - a rotation the engine disagrees with
            continue
        yield Candidate(preset, players, seed, table, built.round)
        kept_seats[hero] = kept_seats.get(hero, 0) + 1


def validate(puzzle: dict[str, Any]) -> list[str]:
    """The tutor's validator on the puzzle as a lesson (texts from :mod:`tutorials.mined`)."""
    from .mined import lesson_spec
    from .validation import validate_lesson

    report = validate_lesson(lesson_spec(puzzle))
    return [str(p) for p in report.problems]


def mine(
    games: int,
    seed: int = 1,
    node_limit: int = NODE_LIMIT,
    check: bool = True,
    log: Any = None,
    target: int | None = None,
    sink: Any = None,
    only: frozenset[str] = frozenset(),
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Mine ``games`` games per preset and table size (round-robin); return the puzzles
    and statistics (time per puzzle)."""
    t0 = time.perf_counter()
    seen: set[Hashable] = set()
    puzzles: list[dict[str, Any]] = []
    tried = skipped = dup = refused = 0
    combos = [(p, n) for p, sizes in PRESETS.items() for n in sizes]
    for g in range(games):
        for preset, n in combos:
            game_seed = seed * 1_000_003 + g
            per_game = 0
            for c in candidates(preset, n, game_seed):
                tried += 1
                puzzle = make_puzzle(c, node_limit)
                if puzzle is None:
                    skipped += 1
                    continue
                if only and not only & set(puzzle["themes"]):
                    skipped += 1
                    continue
                key = canonical_key(preset, puzzle["place"], c.round)
                if key in seen:
                    dup += 1
                    continue
                puzzle["id"] = f"{seed}-{len(puzzles) + 1:05d}"
                if check:
                    problems = validate(puzzle)
                    if problems:
                        refused += 1
                        if log:
                            log.write(f"refused {preset} {game_seed}: {problems[:2]}\n")
                        continue
                seen.add(key)
                puzzles.append(puzzle)
                if sink is not None:  # written as found: an interrupted run keeps its work
                    sink.write(json.dumps(puzzle, separators=(",", ":")) + "\n")
                    sink.flush()
                per_game += 1
                if per_game >= PER_GAME:
                    break
            if target is not None and len(puzzles) >= target:
                break
        if log and g % 10 == 0:
            spent = time.perf_counter() - t0
            log.write(f"game {g}: {len(puzzles)} puzzles, {spent:.0f} s\n")
            log.flush()
        if target is not None and len(puzzles) >= target:
            break
    spent = time.perf_counter() - t0
    stats = {
        "puzzles": len(puzzles),
        "tried": tried,
        "skipped": skipped,
        "duplicates": dup,
        "refused": refused,
        "seconds": round(spent, 1),
        "seconds_per_puzzle": round(spent / max(1, len(puzzles)), 3),
    }
    return puzzles, stats


def retheme(p: dict[str, Any]) -> list[str]:
    """A record's themes read again from its stored line (no search: the line is proven)."""
    r = engine.build_table({"preset": p["preset"]}, p["table"]).round
    start = r
    line = []
    for seat, text in p["line"]:
        cards, form = engine.split_move(text)
        move = (
            r.move(cards, form) if text != "pass" else next(m for m in r.legal_moves() if m.is_pass)
        )
        assert isinstance(move, Move), move
        nxt = r.apply(move)
        assert not isinstance(nxt, Refusal), nxt
        line.append({"seat": seat, "move": str(move), "m": move, "r": (r, nxt)})
        r = nxt
    return themes_of(start, line, line[0]["m"])


def merge(batches: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Several mined files as one: ids kept (they carry their seed), duplicates up to suit
    symmetry dropped (the first kept)."""
    seen: set[Hashable] = set()
    ids: set[str] = set()
    out = []
    for batch in batches:
        for p in batch:
            r = engine.build_table({"preset": p["preset"]}, p["table"]).round
            key = canonical_key(p["preset"], p["place"], r)
            if key in seen or p["id"] in ids:
                continue
            seen.add(key)
            ids.add(p["id"])
            out.append({**p, "themes": retheme(p)})
    return out


def write(puzzles: list[dict[str, Any]], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as f:
        for p in puzzles:
            f.write(json.dumps(p, ensure_ascii=False, separators=(",", ":")) + "\n")


def read(path: Path = DEFAULT_OUT) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def summary(puzzles: list[dict[str, Any]]) -> dict[str, Any]:
    themes: Counter[str] = Counter()
    bands: Counter[str] = Counter()
    for p in puzzles:
        themes.update(p["themes"])
        low = p["rating"] // 200 * 200
        bands[f"{low}-{low + 199}"] += 1
    return {"themes": dict(themes.most_common()), "bands": dict(sorted(bands.items()))}


def main(argv: list[str] | None = None) -> int:
    import django

    parser = argparse.ArgumentParser(prog="python -m tutorials.mine", description=__doc__)
    parser.add_argument("--games", type=int, default=50, help="games per preset and size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=None, help="stop at this many")
    parser.add_argument("--node-limit", type=int, default=NODE_LIMIT)
    parser.add_argument("--no-check", action="store_true", help="skip the tutor's validator")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--only", default="", help="keep only puzzles with one of these themes (comma list)"
    )
    parser.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        help="merge these mined files into --out instead (duplicates up to suits dropped)",
    )
    args = parser.parse_args(argv)
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "daifugo_site.settings.dev")
    django.setup()
    if args.merge:
        merged = merge([read(path) for path in args.merge])
        write(merged, args.out)
        print(json.dumps({"puzzles": len(merged), **summary(merged)}, indent=1))
        return 0
    partial = args.out.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as sink:
        puzzles, stats = mine(
            args.games,
            args.seed,
            args.node_limit,
            check=not args.no_check,
            log=sys.stderr,
            target=args.target,
            sink=sink,
            only=frozenset(t for t in args.only.split(",") if t),
        )
    write(puzzles, args.out)
    print(json.dumps({**stats, **summary(puzzles)}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
