"""Puzzles from finished games of people on this site: the miner's pipeline, an admin's gate.

``manage.py mine_player_games [--since DAYS] [--limit N]`` looks at finished games (practice,
rooms, hotseat, rated: a game is its rules, seed and action log) that were not looked at
yet, once each (:class:`tutorials.models.GameScan`). Every decision of a person's seat is
tried through the miner's own functions (:mod:`tutorials.mine`): the table rebuilt from the
dealt hands and the round's actions (seats turned so the player is seat 0), solved under the
same node budget, a unique winning first move, the line proven against every defence, the
themes from the engine's effects, the tutor's validator, a starting rating; then
deduplicated up to suit symmetry against every puzzle the site has (mined, approved,
waiting or rejected). What is kept becomes a :class:`tutorials.models.PlayerPuzzle` waiting
for an admin: nothing of it is on the site (no lesson, no page, no rating) until approved.

The puzzle says "every hand is face up", like every mined puzzle, and holds no name, account
or game link: only cards and plays. A game where anyone at the table turned statistics off
(:func:`daifugo_site.accounts.sitestats.opted_out`, the same rule as the statistics) is not
mined. Bounds: games per run (``--limit``), positions per game (the miner's), and at most
``MAX_WAITING`` candidates waiting; rejected ones are purged (``TutorialsConfig``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from rules_engine import Action, Match, Refusal, RuleSet
from rules_engine.cards import count
from rules_engine.state import PLAY

from . import engine, mine, mined
from .models import GameScan, Lesson, MinedPuzzle, PlayerPuzzle, Step

#: Candidates waiting for an admin, at most: a run stops adding when the queue is full.
MAX_WAITING = 300
#: Games looked at per run when no ``--limit`` is given.
DEFAULT_LIMIT = 50
#: Rule keys that only shape the deal (the rated 1v1's 13 cards): a puzzle starts from
#: the hands as they are, so its rules are the preset without them.
DEAL_ONLY = frozenset({"hand_size"})
#: A game longer than this (actions) is not replayed: a stored log is bounded, so is this.
MAX_ACTIONS = 4000


def puzzle_preset(rules: Any) -> str | None:
    """The preset a game's positions can be puzzles of, or None: only a preset the miner
    knows, unchanged but for the deal (a puzzle's page names its rules by the preset)."""
    if not isinstance(rules, dict):
        return None
    preset = rules.get("preset")
    if preset not in mine.PRESETS:
        return None
    if set(rules) - {"preset"} - DEAL_ONLY:
        return None
    return str(preset)


def person_seats(game: Any) -> list[int]:
    return [s for s, entry in enumerate(game.seats) if entry.get("kind") == "human"]


def opted_out(game: Any) -> bool:
    """Anyone at the table turned statistics off (their browser or their account), as the
    accounts app says (:mod:`tutorials.hooks`); without it, every game is kept out."""
    from . import hooks

    return hooks.game_opted_out is None or hooks.game_opted_out(game)


def _step(action: Action) -> dict[str, Any] | None:
    """A logged action as a tutor-table step (None: a house-rule choice a table cannot
    replay, so the rest of that round is not used)."""
    if action.kind == "play":
        step: dict[str, Any] = {"play": action.cards}
        if action.form:
            step["form"] = action.form
        return step
    if action.kind == "pass":
        return {"pass": True}
    if action.kind == "give":
        return {"give": action.cards, "by": action.seat}
    return None


def positions(game: Any, preset: str) -> Iterator[tuple[int, mine.Candidate]]:
    """``(log index, candidate)`` for each decision of a person's seat worth trying: the
    miner's own filters (few cards left, at least two legal moves, at most two positions
    per seat and round) and its table (:func:`tutorials.mine.rotated_table`)."""
    record = game.record()
    people = set(person_seats(game))
    rules = RuleSet.from_json(record["rules"])
    m = Match.new(rules, int(record["players"]), int(record["rounds"]), record["seed"])
    actions = [Action.from_json(a) for a in record["actions"][:MAX_ACTIONS]]
    start = m.round
    r = start
    steps: list[tuple[int, dict[str, Any]]] = []
    plain = True
    kept: dict[int, int] = {}
    for index, action in enumerate(actions):
        if action.kind == "next":
            nxt = m.apply(action)
            if isinstance(nxt, Refusal):  # pragma: no cover - a stored log replays
                return
            m = nxt
            start = r = m.round
            steps, plain, kept = [], True, {}
            continue
        hero = r.to_act
        if (
            plain
            and r.phase == PLAY
            and hero in people
            and kept.get(hero, 0) < 2
            and sum(count(h) for h in r.hands) <= mine.MAX_CARDS
            and len(r.legal_moves()) >= 2
        ):
            table = mine.rotated_table(start, steps, hero)
            try:
                built = engine.build_table({"preset": preset}, table).round
            except engine.TableError:
                built = None
            if built is not None and _same(built, r, hero):
                kept[hero] = kept.get(hero, 0) + 1
                yield index, mine.Candidate(preset, game.players, 0, table, built)
        nxt = m.apply(action)
        if isinstance(nxt, Refusal):  # pragma: no cover - a stored log replays
            return
        m = nxt
        step = _step(action)
        if step is None:
            plain = False
        else:
            steps.append((int(action.seat or 0), step))
        r = m.round


def _same(built: Any, r: Any, hero: int) -> bool:
    """The rebuilt table is the game's position, seats turned (the puzzle is that position)."""
    n = r.n
    return (
        built.to_act == 0
        and all(built.hands[s] == r.hands[(s + hero) % n] for s in range(n))
        and built.top == r.top
        and built.revolution == r.revolution
        and built.jback == r.jback
        and built.lock == r.lock
    )


def position_digest(preset: str, place: int, r: Any) -> str:
    """A digest of :func:`tutorials.mine.canonical_key` (made of numbers, tuples and
    strings, so its repr is stable)."""
    return hashlib.sha256(repr(mine.canonical_key(preset, place, r)).encode()).hexdigest()


def known_positions() -> set[str]:
    """Every puzzle position the site has: mined puzzles, and players' puzzles (approved,
    waiting or rejected; from reviews too)."""
    known: set[str] = set(
        PlayerPuzzle.objects.exclude(position="").values_list("position", flat=True)
    )
    rows = Step.objects.filter(lesson__category="puzzles", kind="puzzle").values_list(
        "lesson__rules", "table", "data"
    )
    for rules, table, data in rows.iterator(chunk_size=500):
        preset = puzzle_preset(rules)
        if preset is None or not isinstance(table, dict):
            continue
        try:
            r = engine.build_table({"preset": preset}, table).round
        except engine.TableError:
            continue
        known.add(position_digest(preset, int((data or {}).get("place", 0)), r))
    return known


@dataclass
class Stats:
    games: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    tried: int = 0
    kept: int = 0
    duplicates: int = 0
    seconds: float = 0.0
    full: bool = False

    def as_dict(self) -> dict[str, Any]:
        mined_games = self.games - sum(self.skipped.values())
        return {
            "games": self.games,
            "skipped": self.skipped,
            "positions_tried": self.tried,
            "candidates": self.kept,
            "duplicates": self.duplicates,
            "seconds": round(self.seconds, 1),
            "seconds_per_game": round(self.seconds / max(1, mined_games), 2),
            "queue_full": self.full,
        }


def scan_game(
    game: Any, known: set[str], stats: Stats, node_limit: int = mine.NODE_LIMIT
) -> GameScan:
    """Mine one finished game (once: a second call returns the first scan)."""
    existing = GameScan.objects.filter(game=game).first()
    if existing is not None:
        return existing
    t0 = time.perf_counter()
    stats.games += 1
    scan = GameScan(game=game)
    preset = puzzle_preset(game.rules)
    if not person_seats(game):
        scan.skipped = "no-people"
    elif preset is None:
        scan.skipped = "rules"
    elif opted_out(game):
        scan.skipped = "opted-out"
    if scan.skipped:
        stats.skipped[scan.skipped] = stats.skipped.get(scan.skipped, 0) + 1
        GameScan.objects.get_or_create(game=game, defaults={"skipped": scan.skipped})
        return scan
    assert preset is not None
    found: list[tuple[int, dict[str, Any], str]] = []
    try:
        for index, candidate in positions(game, preset):
            scan.tried += 1
            puzzle = mine.make_puzzle(candidate, node_limit)
            if puzzle is None:
                continue
            digest = position_digest(preset, puzzle["place"], candidate.round)
            if digest in known:
                stats.duplicates += 1
                continue
            puzzle.pop("seed", None)  # nothing that leads back to the game
            puzzle["source"] = mined.SOURCE_SITE
            puzzle["id"] = "p-new"
            if mine.validate(puzzle):
                continue
            known.add(digest)
            found.append((index, puzzle, digest))
            if len(found) >= mine.PER_GAME:
                break
    except (ValueError, KeyError, TypeError):  # a log the engine no longer replays
        scan.skipped = "broken"
        stats.skipped["broken"] = stats.skipped.get("broken", 0) + 1
    scan.seconds = round(time.perf_counter() - t0, 3)
    stats.tried += scan.tried
    stats.seconds += scan.seconds
    try:
        with transaction.atomic():
            scan.kept = len(found)
            scan.save(force_insert=True)
            for index, puzzle, digest in found:
                PlayerPuzzle.objects.get_or_create(
                    game_id=game.pk,
                    action_index=index,
                    defaults={"record": puzzle, "position": digest},
                )
    except IntegrityError:  # another run scanned this game meanwhile: its result stands
        return GameScan.objects.get(game=game)
    stats.kept += len(found)
    return scan


def waiting() -> Any:
    return PlayerPuzzle.objects.filter(
        record__isnull=False, lesson__isnull=True, approved=False, rejected=False
    )


def scan(
    limit: int = DEFAULT_LIMIT,
    since: timedelta | None = None,
    node_limit: int = mine.NODE_LIMIT,
    log: Any = None,
) -> Stats:
    """Mine up to ``limit`` finished games not scanned yet (oldest first; only those that
    ended within ``since`` if given)."""
    from daifugo_site.play.models import Game

    stats = Stats()
    games = Game.objects.filter(status=Game.Status.FINISHED, puzzle_scan__isnull=True)
    if since is not None:
        games = games.filter(updated__gte=timezone.now() - since)
    games = games.order_by("updated", "pk")[: max(0, limit)]
    known: set[str] | None = None
    for game in games:
        if waiting().count() >= MAX_WAITING:
            stats.full = True
            break
        if known is None:
            known = known_positions()
        scan_game(game, known, stats, node_limit)
        if log is not None:
            log.write(f"{game.pk}: {stats.kept} candidates after {stats.games} games\n")
    return stats


# -- the admin's gate ----------------------------------------------------------------------------


def publish(candidate: PlayerPuzzle) -> PlayerPuzzle:
    """Approve a mined candidate: its lesson and rated puzzle are made, and it is live."""
    if candidate.record is None:
        raise ValueError("only a mined candidate is published")
    if candidate.lesson_id is not None:
        if not candidate.approved:
            PlayerPuzzle.objects.filter(pk=candidate.pk).update(approved=True, rejected=False)
        candidate.refresh_from_db()
        return candidate
    record = {**candidate.record, "id": f"p-{candidate.pk:05d}", "source": mined.SOURCE_SITE}
    with transaction.atomic():
        locked = PlayerPuzzle.objects.select_for_update().get(pk=candidate.pk)
        if locked.lesson_id is None:
            try:
                with transaction.atomic():
                    mined._insert(
                        [(record, mined.record_digest(record))],
                        Lesson,
                        Step,
                        MinedPuzzle,
                        source="players",
                    )
            except IntegrityError:  # made already (a slug is the record's id)
                pass
            locked.lesson = Lesson.objects.get(slug=mined.lesson_spec(record).slug)
        locked.approved = True
        locked.rejected = False
        locked.decided = timezone.now()
        locked.save(update_fields=["lesson", "approved", "rejected", "decided"])
    return locked


def withdraw(candidate: PlayerPuzzle, reject: bool = False) -> None:
    """Take a mined candidate off the site (its lesson, rating and attempts go): back to
    waiting, or rejected (then purged in time)."""
    with transaction.atomic():
        locked = PlayerPuzzle.objects.select_for_update().get(pk=candidate.pk)
        lesson_id = locked.lesson_id
        locked.lesson = None
        locked.approved = False
        locked.rejected = reject
        locked.decided = timezone.now()
        locked.save(update_fields=["lesson", "approved", "rejected", "decided"])
        if lesson_id is not None:
            Lesson.objects.filter(pk=lesson_id).delete()


__all__ = [
    "MAX_WAITING",
    "known_positions",
    "positions",
    "publish",
    "scan",
    "scan_game",
    "withdraw",
]
