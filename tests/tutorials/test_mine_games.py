"""Puzzles from players' finished games (tutorials/mine_games.py): a seeded finished game
with a solvable endgame for its person's seat yields a candidate, re-proven from its
table; each game is scanned once and a position is never a candidate twice; nothing is on
the site before an admin approves it, and approving makes it a served, rated puzzle with
the source note in both languages; a game of someone whose statistics are off is skipped;
rejected candidates are purged."""

from __future__ import annotations

import datetime
import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from daifugo_site.accounts.client import token_hash
from daifugo_site.accounts.models import Profile, StatsOptOut
from daifugo_site.play.models import Game
from rules_engine.solver import solve
from tests.daifugo_site.review.conftest import scripted_game
from tutorials import engine, mine_games, puzzle_rating
from tutorials.apps import TutorialsConfig
from tutorials.models import GameScan, Lesson, MinedPuzzle, PlayerPuzzle

#: A 1-round standard game of the intermediate heuristic where seat 0 (the person) can
#: force first place at action 57 with one move only (SQ): found by trying seeds.
SEED = 1
INDEX = 57
SOLUTION = "SQ"


@pytest.fixture
def game(db: None) -> Game:
    return scripted_game("owner-token-1", seed=SEED)


def scan(**kwargs: Any) -> mine_games.Stats:
    return mine_games.scan(**kwargs)


def test_a_finished_game_yields_a_candidate_re_proven_from_its_table(game: Game) -> None:
    stats = scan()
    assert stats.games == 1 and stats.kept >= 1 and stats.tried >= stats.kept
    candidate = PlayerPuzzle.objects.get(game_id=game.pk, action_index=INDEX)
    record = candidate.record
    assert record is not None and candidate.lesson is None and not candidate.approved
    assert record["solution"] == SOLUTION and record["themes"] and record["rating"] >= 600
    # Re-proven from the stored table alone: seat 0 to act, one winning first move.
    r = engine.build_table({"preset": record["preset"]}, record["table"]).round
    assert r.to_act == engine.LEARNER
    sol = solve(r, engine.LEARNER, record["place"])
    assert sol.proven and [str(m) for m in sol.winning_moves] == [SOLUTION]
    assert len(r.legal_moves()) >= 2
    # Nothing in it names the game, its seed or a player.
    text = json.dumps(record)
    assert game.pk not in text and "seed" not in record and "owner-token-1" not in text
    assert candidate.position == mine_games.position_digest(record["preset"], record["place"], r)
    scan_row = GameScan.objects.get(game=game)
    assert scan_row.kept == stats.kept and scan_row.skipped == "" and scan_row.seconds >= 0


def test_a_second_run_adds_nothing(game: Game) -> None:
    scan()
    rows = list(PlayerPuzzle.objects.values_list("pk", "action_index"))
    again = scan()
    assert again.games == 0 and again.kept == 0
    assert mine_games.scan_game(game, set(), mine_games.Stats()).kept == len(rows)
    assert list(PlayerPuzzle.objects.values_list("pk", "action_index")) == rows
    # The same positions in another game are duplicates, not new candidates.
    twin = scripted_game("owner-token-2", seed=SEED)
    stats = scan()
    assert stats.games == 1 and stats.kept == 0 and stats.duplicates >= 1
    assert not PlayerPuzzle.objects.filter(game_id=twin.pk).exists()


def test_nothing_is_live_before_approval_and_approving_serves_it(
    game: Game, admin_client: Client
) -> None:
    scan()
    candidate = PlayerPuzzle.objects.get(action_index=INDEX)
    assert not MinedPuzzle.objects.exists()
    assert not Lesson.objects.filter(slug__startswith="mined-p-").exists()
    assert puzzle_rating.next_puzzle(None) is None
    assert puzzle_rating.daily(datetime.date(2026, 1, 1)) is None

    # The admin's gate: the list shows the candidate; the approve action publishes it.
    page = admin_client.get("/admin/tutorials/playerpuzzle/")
    assert page.status_code == 200 and SOLUTION in page.content.decode()
    change = admin_client.get(f"/admin/tutorials/playerpuzzle/{candidate.pk}/change/")
    assert change.status_code == 200 and SOLUTION in change.content.decode()
    response = admin_client.post(
        "/admin/tutorials/playerpuzzle/",
        {"action": "approve", "_selected_action": [candidate.pk]},
    )
    assert response.status_code == 302
    candidate.refresh_from_db()
    assert candidate.approved and candidate.lesson is not None
    puzzle = MinedPuzzle.objects.get()
    assert puzzle.lesson == candidate.lesson and puzzle.solution == SOLUTION
    assert puzzle.key == f"p-{candidate.pk:05d}" and candidate.lesson.source == "players"
    assert candidate.lesson.summary_zh_hans == "这是本站玩家对局中的一个局面。"
    assert candidate.lesson.summary_ja == "このサイトで遊ばれた対局の局面です。"

    # Served like a mined puzzle: chosen, opened, its page in both languages.
    assert puzzle_rating.next_puzzle(None) == puzzle
    client = Client()
    opened = client.get("/zh-hans/learn/puzzles/next/")
    assert opened.status_code == 302
    slug = candidate.lesson.slug
    assert opened["Location"].endswith(f"/{slug}/")
    for lang, note in (("zh-hans", "本站玩家对局"), ("ja", "このサイトで遊ばれた対局")):
        body = client.get(f"/{lang}/learn/{slug}/").content.decode()
        assert note in body and 'data-testid="puzzle-panel"' in body
    hub = client.get("/ja/learn/puzzles/").content.decode()
    assert "このサイトで遊ばれた対局から取った 1 問" in hub
    # Loading the shipped file again leaves it alone (it is not in the file).
    from tutorials.mined import load_mined

    load_mined()
    assert MinedPuzzle.objects.filter(key=puzzle.key).exists()

    # Withdrawn: off the site again, and back to waiting.
    admin_client.post(
        "/admin/tutorials/playerpuzzle/",
        {"action": "withdraw", "_selected_action": [candidate.pk]},
    )
    candidate.refresh_from_db()
    assert candidate.lesson is None and not candidate.approved
    assert not MinedPuzzle.objects.filter(key=puzzle.key).exists()


def test_rejected_candidates_are_purged(game: Game, admin_client: Client) -> None:
    scan()
    candidate = PlayerPuzzle.objects.get(action_index=INDEX)
    admin_client.post(
        "/admin/tutorials/playerpuzzle/",
        {"action": "reject", "_selected_action": [candidate.pk]},
    )
    candidate.refresh_from_db()
    assert candidate.rejected and candidate.lesson is None
    stale = TutorialsConfig.stale_querysets(None)  # type: ignore[arg-type]
    key = "rejected puzzles from players' games"
    assert not stale[key].exists()  # rejected just now
    PlayerPuzzle.objects.filter(pk=candidate.pk).update(
        decided=timezone.now() - datetime.timedelta(days=31)
    )
    assert list(stale[key]) == [candidate]


@pytest.mark.parametrize("how", ["account", "browser"])
def test_a_game_of_someone_whose_statistics_are_off_is_not_mined(db: None, how: str) -> None:
    from django.contrib.auth.models import User

    token = "owner-token-off"
    if how == "account":
        user = User.objects.create_user("off", "off@example.com", "pw-123456789")
        Profile.objects.create(user=user, display_name="off", player_token=token, statistics=False)
    else:
        StatsOptOut.objects.create(token_hash=token_hash(token))
    game = scripted_game(token, seed=SEED)
    stats = scan()
    assert stats.games == 1 and stats.skipped == {"opted-out": 1} and stats.kept == 0
    assert GameScan.objects.get(game=game).skipped == "opted-out"
    assert not PlayerPuzzle.objects.exists()


def test_without_the_accounts_apps_answer_no_game_is_mined(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tutor cannot read the accounts itself (it sits below them): the accounts app
    registers who opted out, and with nobody to say, every game is kept out."""
    from tutorials import hooks

    assert hooks.game_opted_out is not None  # registered by the accounts app
    monkeypatch.setattr(hooks, "game_opted_out", None)
    stats = scan()
    assert stats.skipped == {"opted-out": 1} and stats.kept == 0
    assert not PlayerPuzzle.objects.exists()


def test_the_command_reports_counts(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(rules={"preset": "standard", "eight_cut": False})
    scripted_game("owner-token-3", seed=5)
    out = StringIO()
    call_command("mine_player_games", "--limit", "5", "--since", "7", stdout=out)
    report = json.loads(out.getvalue())
    assert report["games"] == 2 and report["skipped"] == {"rules": 1}
    assert report["candidates"] >= 1 and report["seconds_per_game"] >= 0


def test_the_waiting_queue_is_bounded(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mine_games, "MAX_WAITING", 0)
    stats = scan()
    assert stats.full and stats.games == 0 and not GameScan.objects.exists()


def test_which_rules_make_puzzles() -> None:
    # A preset as it is; the rated 1v1's 13-card deal does not change a position's rules.
    assert mine_games.puzzle_preset({"preset": "standard"}) == "standard"
    assert mine_games.puzzle_preset({"preset": "standard", "hand_size": 13}) == "standard"
    # A changed rule would make the page's "standard rules" untrue; an unknown preset.
    assert mine_games.puzzle_preset({"preset": "standard", "eight_cut": False}) is None
    assert mine_games.puzzle_preset({"preset": "nope"}) is None
    assert mine_games.puzzle_preset("standard") is None
