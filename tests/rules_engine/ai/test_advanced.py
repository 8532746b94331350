"""The advanced player: legal everywhere, deterministic for a seed with a
playouts budget, within its time budget, exact in small endgames."""

from __future__ import annotations

import random
import time

import pytest
from aihelpers import TABLES, random_positions, weakest

from rules_engine import Round, RuleSet, observe, round_from_observation
from rules_engine.ai import AdvancedPlayer, Budget, make_player
from rules_engine.ai.advanced import DEFAULT_BUDGET, READ_WORLDS, WORLD_BATCH
from rules_engine.ai.policy import default_weights, policy_move
from rules_engine.ai.worlds import WorldSampler
from rules_engine.cards import JOKER_SHIFT, REAL_MASK, count, parse_cards
from rules_engine.state import EXCHANGE, PLAY

SMALL = Budget(playouts=12)


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_only_legal_moves(label: str, rules: RuleSet, players: int) -> None:
    player = make_player("advanced")
    rng = random.Random(label)
    for obs in random_positions(rules, players, 40, seed=players * 13 + len(label)):
        move = player.choose_move(obs, rng, SMALL)
        assert move in obs.legal, (label, obs.to_json(), str(move))


def test_deterministic_for_a_seed() -> None:
    rules = RuleSet.preset("standard")
    positions = [o for o in random_positions(rules, 4, 60, seed=11) if len(o.legal) > 1][:25]
    budget = Budget(playouts=60)
    a = [AdvancedPlayer().choose_move(o, random.Random(i), budget) for i, o in enumerate(positions)]
    b = [AdvancedPlayer().choose_move(o, random.Random(i), budget) for i, o in enumerate(positions)]
    assert a == b


def test_same_statistics_for_the_same_seed() -> None:
    r = Round.deal(RuleSet.preset("party"), 3, seed=8)
    obs = observe(r, r.to_act)
    p1, p2 = AdvancedPlayer(), AdvancedPlayer()
    p1.choose_move(obs, random.Random(5), Budget(playouts=80))
    p2.choose_move(obs, random.Random(5), Budget(playouts=80))
    assert p1.last.means == p2.last.means and p1.last.visits == p2.last.visits
    assert p1.last.playouts <= 80


def test_respects_its_time_budget() -> None:
    r = Round.deal(RuleSet.preset("standard"), 4, seed=2)
    obs = observe(r, r.to_act)
    player = AdvancedPlayer()
    t0 = time.perf_counter()
    move = player.choose_move(obs, random.Random(1), Budget(time_ms=60))
    elapsed = time.perf_counter() - t0
    assert move in obs.legal
    assert elapsed < 0.5
    assert player.last.playouts >= 1


def test_default_budget_is_about_a_third_of_a_second() -> None:
    assert DEFAULT_BUDGET.time_ms is not None and 100 <= DEFAULT_BUDGET.time_ms <= 500


def test_forced_move_is_instant() -> None:
    # After a 2, the next seat can only pass: no search at all.
    r2 = Round.start(RuleSet.preset("basic"), ["S2 S3", "C4", "HK"], leader=0).apply("S2")
    assert isinstance(r2, Round)
    obs = observe(r2, 1)
    assert [str(m) for m in obs.legal] == ["pass"]
    assert str(AdvancedPlayer().choose_move(obs, random.Random(0))) == "pass"


def test_exact_endgame() -> None:
    # Two players left: leading the 2 first is the only way to go out first.
    rules = RuleSet.preset("basic")
    r = Round.start(rules, ["S2 S3", "HK D4"], leader=0)
    player = AdvancedPlayer()
    move = player.choose_move(observe(r, 0), random.Random(3), Budget(playouts=200))
    assert str(move) == "S2"
    assert player.last.mode == "solver"


def test_presses_for_the_win_in_a_three_player_ending() -> None:
    # Seat 0 can go out at once with its pair; any other play loses tempo.
    rules = RuleSet.preset("basic")
    r = Round.start(rules, ["S9 H9", "D5 C5 SK", "D7 HQ"], leader=1).apply("D5 C5")
    assert isinstance(r, Round)
    r = r.apply("pass")
    assert isinstance(r, Round)
    move = AdvancedPlayer().choose_move(observe(r, 0), random.Random(0), Budget(playouts=100))
    assert str(move) == "S9 H9"


def test_candidates_are_distinct_and_start_with_the_heuristic() -> None:
    r = Round.deal(RuleSet.preset("basic"), 4, seed=21)
    obs = observe(r, r.to_act)
    player = AdvancedPlayer()
    player.choose_move(obs, random.Random(0), Budget(playouts=30))
    cands = player.last.candidates
    assert len(cands) == len(set(cands)) and 1 < len(cands) <= 10
    assert all(c in obs.legal for c in cands)


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_sampled_worlds_fit_the_observation(label: str, rules: RuleSet, players: int) -> None:
    """Every sampled world deals each seat its observed count from the unseen
    cards, keeps given cards with their receiver, and replays the public
    history (so the play model can be read)."""
    for obs in random_positions(rules, players, 40, seed=players + 100):
        sampler = WorldSampler(obs, random.Random(0))
        if obs.history:
            assert sampler.trace_ok
        unseen = obs.unseen()
        for hands in sampler.sample_worlds(4):
            assert hands[obs.seat] == obs.hand
            assert tuple(count(h) for h in hands) == obs.counts
            others = sum(h for s, h in enumerate(hands) if s != obs.seat)
            assert others & REAL_MASK & ~unseen == 0
            assert others >> JOKER_SHIFT <= unseen >> JOKER_SHIFT
            for seat, cards in obs.known_cards().items():
                if obs.counts[seat]:
                    assert hands[seat] & cards & REAL_MASK == cards & REAL_MASK
            assert round_from_observation(obs, hands).legal_moves()


def test_the_true_hands_are_always_possible_after_an_exchange() -> None:
    """The inference "the seat that gave me its strongest cards holds nothing
    stronger" never excludes the real hand."""
    checked = 0
    for preset in ("standard", "party", "classic", "basic"):
        rules = RuleSet.preset(preset)
        for n in (3, 4, 5, 6):
            for i in range(25):
                previous = list(range(n))
                random.Random(i).shuffle(previous)
                r = Round.deal(rules, n, f"c{i}", previous=previous)
                while r.phase == EXCHANGE:
                    seat = next(s for s in range(n) if r.owed[s])
                    out = r.give(seat, weakest(r.hands[seat], r.owed[seat]))
                    assert isinstance(out, Round)
                    r = out
                for hero in range(n):
                    sampler = WorldSampler(observe(r, hero), random.Random(0))
                    if sampler.capped is None:
                        continue
                    free = r.hands[sampler.capped] - sampler.known[sampler.capped]
                    forbidden = sampler.cap_forbidden
                    assert not free & forbidden & REAL_MASK
                    assert not (free >> JOKER_SHIFT and forbidden >> JOKER_SHIFT)
                    checked += 1
    assert checked > 300


def test_garbage_collector_state_is_restored() -> None:
    import gc

    r = Round.deal(RuleSet.preset("standard"), 4, seed=4)
    obs = observe(r, r.to_act)
    was = gc.isenabled()
    try:
        gc.enable()
        AdvancedPlayer().choose_move(obs, random.Random(0), Budget(playouts=5))
        assert gc.isenabled()
        gc.disable()
        AdvancedPlayer().choose_move(obs, random.Random(0), Budget(playouts=5))
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_exchange_returns_are_searched_and_repeatable() -> None:
    rules = RuleSet.preset("uecda")
    r = Round.deal(rules, 5, seed=11, previous=[0, 1, 2, 3, 4])
    obs = observe(r, 0)  # first place last round: owes two cards
    assert obs.owe == 2
    a, b = AdvancedPlayer(), AdvancedPlayer()
    ca = a.choose_return(obs, random.Random(2), Budget(playouts=300))
    cb = b.choose_return(obs, random.Random(2), Budget(playouts=300))
    assert ca == cb and count(ca) == 2 and ca & ~obs.hand == 0
    # Every pair of the hand's least useful cards was tried, within the budget.
    assert len(a.last.visits) == 21 and min(a.last.visits) >= 1
    assert a.last.playouts <= 300
    out = r.give(0, ca)
    assert isinstance(out, Round)


def test_exchange_search_on_a_short_hand_never_gives_its_2() -> None:
    rules = RuleSet.preset("standard")
    r = Round.start(rules, ["S3 S2", "H4 C5 D6", "C8 D9", "DK CK SK"], previous=[0, 1, 2, 3])
    obs = observe(r, 0)
    assert obs.owe == 2
    # S3 S2 and the two kings it got: the 2 stays while three other cards can go.
    cards = AdvancedPlayer().choose_return(obs, random.Random(0), Budget(playouts=50))
    assert count(cards) == 2 and cards & ~obs.hand == 0
    assert not cards & parse_cards("S2")


def test_sampled_worlds_read_the_exchange_between_other_seats() -> None:
    # The last place had to hand its two strongest cards to the first: a seat watching
    # from the middle should guess the joker with the first place more often than chance.
    from rules_engine.ai.heuristics import return_cards

    rules = RuleSet.preset("uecda")
    weighted = uniform = truth = deals = 0.0
    for i in range(60):
        r = Round.deal(rules, 5, seed=f"gift{i}", previous=[0, 1, 2, 3, 4])
        while r.phase == EXCHANGE:
            s = next(x for x in range(5) if r.owed[x])
            given = r.give(s, return_cards(r.hands[s], r.owed[s], rules))
            assert isinstance(given, Round)
            r = given
        obs = observe(r, 2)
        if obs.hand >> JOKER_SHIFT:
            continue
        deals += 1
        truth += bool(r.hands[0] >> JOKER_SHIFT)
        shares = []
        for use in (True, False):
            hands = WorldSampler(obs, random.Random(i), weighting=use).sample_worlds(30, 3)
            shares.append(sum(bool(h[0] >> JOKER_SHIFT) for h in hands) / len(hands))
        weighted += shares[0]
        uniform += shares[1]
    assert deals >= 40
    assert truth / deals > 0.35  # the first place does hold it often
    assert weighted / deals > uniform / deals + 0.08


def test_every_playout_of_a_candidate_meets_a_world_of_its_own() -> None:
    # The heuristic's rollouts are deterministic: a world replayed by the same candidate
    # would add nothing, so the favourite's playouts each get a fresh world.
    r = Round.deal(RuleSet.preset("uecda"), 5, seed=3)
    obs = observe(r, r.to_act)
    player = AdvancedPlayer(opponent_policy=False, own_policy=False, read_policy=False)
    player.choose_move(obs, random.Random(1), Budget(playouts=900))
    stats = player.last
    assert stats.mode == "bandit" and max(stats.visits) > 300
    assert stats.worlds >= max(stats.visits)


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_policy_rollouts_are_legal_and_really_used(
    label: str, rules: RuleSet, players: int
) -> None:
    # Rollouts by the learned policy: every move legal on every table, and the playouts
    # really are the policy's (same worlds, other statistics than the heuristic's).
    with_policy = AdvancedPlayer(rollout_policy=True)
    heuristic = AdvancedPlayer(rollout_policy=False)
    differed = False
    for obs in random_positions(rules, players, 30, seed=players * 7 + len(label)):
        move = with_policy.choose_move(obs, random.Random(3), Budget(playouts=40))
        assert move in obs.legal, (label, obs.to_json(), str(move))
        if len(obs.legal) > 1 and with_policy.last.playouts:
            heuristic.choose_move(obs, random.Random(3), Budget(playouts=40))
            differed = differed or with_policy.last.means != heuristic.last.means
    assert differed


UECDA = RuleSet.preset("uecda")


def test_opponents_play_the_learned_policy_only_where_it_was_fitted() -> None:
    # The shipped weights were fitted to UECda records: under UECda's rules the other
    # seats of a rollout play them; under the site's presets (where they model nobody)
    # the heuristic does, unless asked otherwise.
    uecda = observe(Round.deal(UECDA, 5, seed=1), 0)
    standard = observe(Round.deal(RuleSet.preset("standard"), 4, seed=1), 0)
    assert AdvancedPlayer().opponent_model(uecda) is not None
    assert AdvancedPlayer().opponent_model(standard) is None
    assert AdvancedPlayer(opponent_policy=False).opponent_model(uecda) is None
    assert AdvancedPlayer(opponent_policy=True).opponent_model(standard) is not None
    # So does the seat itself, drawing its moves too; elsewhere only when asked.
    assert AdvancedPlayer().own_model(uecda) is not None
    assert AdvancedPlayer().own_model(standard) is None
    assert AdvancedPlayer(own_policy=False).own_model(uecda) is None
    assert AdvancedPlayer(own_policy=True).own_model(standard) is not None
    assert AdvancedPlayer().own_temperature == 1.0
    # The others' past plays are read by the policy where it models them.
    assert AdvancedPlayer().reading_model(uecda) is not None
    assert AdvancedPlayer().reading_model(standard) is None
    assert AdvancedPlayer(read_policy=False).reading_model(uecda) is None
    assert AdvancedPlayer(weighting=False).reading_model(uecda) is None
    assert AdvancedPlayer(read_policy=True).reading_model(standard) is not None
    # All seats on the policy already (rollout_policy): nothing more to model.
    assert AdvancedPlayer(rollout_policy=True).opponent_model(uecda) is None
    assert AdvancedPlayer(rollout_policy=True).own_model(uecda) is None
    # Every rollout seat takes a sure way out first, where the policy models the play.
    assert AdvancedPlayer().sure_moves(uecda)
    assert not AdvancedPlayer().sure_moves(standard)
    assert not AdvancedPlayer(sure=False).sure_moves(uecda)
    assert AdvancedPlayer(sure=True).sure_moves(standard)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_policy_opponents_legal_repeatable_and_really_used(players: int) -> None:
    positions = [o for o in random_positions(UECDA, players, 40, seed=players) if len(o.legal) > 1]
    assert len(positions) >= 15
    budget = Budget(playouts=50)
    differed = False
    read_differed = 0
    for i, obs in enumerate(positions[:15]):
        a, b = AdvancedPlayer(), AdvancedPlayer()
        move = a.choose_move(obs, random.Random(i), budget)
        assert move in obs.legal, obs.to_json()
        # A playouts-only budget: the choice is a function of the observation and seed.
        assert b.choose_move(obs, random.Random(i), budget) == move
        assert (a.last.means, a.last.visits) == (b.last.means, b.last.visits)
        if a.last.mode == "bandit":
            heuristic = AdvancedPlayer(opponent_policy=False)
            heuristic.choose_move(obs, random.Random(i), budget)
            differed = differed or heuristic.last.means != a.last.means
            simple = AdvancedPlayer(read_policy=False)
            simple.choose_move(obs, random.Random(i), budget)
            read_differed += simple.last.means != a.last.means
    assert differed
    assert read_differed >= 3  # the policy's reading of the plays chose other worlds


@pytest.mark.parametrize(
    ("seed", "kind", "other"),
    [
        # Under UECda's rules the seat's own rollout moves are drawn from the policy: the
        # same worlds and opponents' draws with the heuristic in its place give other figures.
        (9, {}, {"own_policy": False}),
        # own_temperature=0: the policy's best move (the variant measured before), not the
        # draws.
        (11, {"own_temperature": 0.0}, {}),
        # Every seat takes a sure way out before the policy draws: without it, other figures.
        (13, {}, {"sure": False}),
    ],
    ids=["drawn-vs-heuristic", "best-vs-drawn", "sure-vs-drawn-only"],
)
def test_the_seats_own_policy_is_really_used_and_repeatable(
    seed: int, kind: dict[str, float], other: dict[str, bool]
) -> None:
    # Either way the choice is a function of the observation and the seed.
    positions = [o for o in random_positions(UECDA, 5, 40, seed=seed) if len(o.legal) > 1]
    budget = Budget(playouts=50)
    differed = 0
    for i, obs in enumerate(positions[:12]):
        a, b = AdvancedPlayer(**kind), AdvancedPlayer(**kind)
        move = a.choose_move(obs, random.Random(i), budget)
        assert move in obs.legal, obs.to_json()
        assert b.choose_move(obs, random.Random(i), budget) == move
        assert (a.last.means, a.last.visits) == (b.last.means, b.last.visits)
        if a.last.mode == "bandit":
            compared = AdvancedPlayer(**other)
            compared.choose_move(obs, random.Random(i), budget)
            differed += compared.last.means != a.last.means
    assert differed >= 3


def _policy_played(seed: int, moves: int) -> Round:
    """A UECda round of five played ``moves`` actions by the policy's own draws."""
    rng = random.Random(seed)
    r = Round.deal(UECDA, 5, seed=f"read-{seed}")
    for _ in range(moves):
        nxt = r.apply(policy_move(r, rng, temperature=1.0))
        assert isinstance(nxt, Round)
        if nxt.phase != PLAY:
            break
        r = nxt
    return r


def test_worlds_read_by_the_policy_fit_and_favour_the_real_hands() -> None:
    # When the others really play the policy, the hands they really hold explain their
    # plays better than most guesses do; every guess still fits the observation.
    w = default_weights()
    better = positions = 0
    for seed in range(30):
        r = _policy_played(seed, 18 + seed % 10)
        if r.phase != PLAY:
            continue
        obs = observe(r, r.to_act)
        sampler = WorldSampler(obs, random.Random(seed), model=w)
        assert sampler.trace_ok
        truth = sampler.weight(list(r.hands))
        guesses = [sampler.sample_hands() for _ in range(40)]
        for hands in guesses:
            assert hands[obs.seat] == obs.hand
            assert tuple(count(h) for h in hands) == obs.counts
        weights = sorted(sampler.weight(h) for h in guesses)
        positions += 1
        better += truth > weights[len(weights) // 2]
        # The simple play model is not what reads them here.
        simple = WorldSampler(obs, random.Random(seed))
        assert [simple.weight(h) for h in guesses] != [sampler.weight(h) for h in guesses]
    assert positions >= 20
    assert better / positions > 0.7


def test_worlds_read_by_the_policy_are_few_and_met_again() -> None:
    # Reading costs about 0.6 ms a world: a decision draws a bounded set and its
    # playouts (whose other seats draw their moves) take them in turn.
    r = _policy_played(4, 12)
    obs = observe(r, r.to_act)
    player = AdvancedPlayer()
    assert player.reading_model(obs) is not None
    player.choose_move(obs, random.Random(1), Budget(playouts=900))
    stats = player.last
    assert stats.mode == "bandit" and max(stats.visits) > READ_WORLDS
    assert READ_WORLDS <= stats.worlds < READ_WORLDS + WORLD_BATCH


def test_policy_opponents_in_the_exchange_search() -> None:
    # The exchange is searched with the same rollouts (test_exchange_returns_are_searched_
    # and_repeatable checks the return itself): the policy's opponents change its figures.
    obs = observe(Round.deal(UECDA, 5, seed=11, previous=[0, 1, 2, 3, 4]), 0)
    with_policy, heuristic = AdvancedPlayer(), AdvancedPlayer(opponent_policy=False)
    with_policy.choose_return(obs, random.Random(2), Budget(playouts=100))
    heuristic.choose_return(obs, random.Random(2), Budget(playouts=100))
    assert with_policy.last.playouts == heuristic.last.playouts == 100
    assert with_policy.last.means != heuristic.last.means
