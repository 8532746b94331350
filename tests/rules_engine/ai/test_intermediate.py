"""The intermediate player: legal everywhere, plans its hand, and plays the
deliberate moves the issue lists (8-cut, spade-3, revolution, pressing,
forbidden finishes). Also its fast rollout variant."""

from __future__ import annotations

import random

import pytest
from aihelpers import TABLES, random_positions

from rules_engine import Round, RuleSet, observe
from rules_engine.ai import DEFAULT_BUDGET, AdvancedPlayer, Budget, IntermediatePlayer, make_player
from rules_engine.ai.heuristics import FALLBACKS, plan, rollout_move, sure_move
from rules_engine.ai.policy import policy_move
from rules_engine.cards import count, format_cards, parse_cards
from rules_engine.effects import forbidden_finish
from rules_engine.moves import PASS
from rules_engine.state import PLAY


def choose(r: Round, seat: int | None = None) -> str:
    seat = r.to_act if seat is None else seat
    return str(IntermediatePlayer().choose_move(observe(r, seat), random.Random(0)))


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_only_legal_moves(label: str, rules: RuleSet, players: int) -> None:
    player = make_player("intermediate")
    rng = random.Random(label)
    before = FALLBACKS[0]
    for obs in random_positions(rules, players, 160, seed=len(label) * 7 + players):
        move = player.choose_move(obs, rng)
        assert move in obs.legal, (label, obs.to_json(), str(move))
    assert FALLBACKS[0] == before  # every lead it built was in the legal list


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_rollout_policy_plays_whole_rounds_legally(
    label: str, rules: RuleSet, players: int
) -> None:
    rng = random.Random(label)
    for i in range(12):
        r = Round.deal(rules, players, f"{label}:{i}")
        steps = 0
        while r.phase == PLAY:
            move = rollout_move(r, rng)
            assert move in r.legal_moves(), (label, r, str(move))
            nxt = r.apply(move)
            assert isinstance(nxt, Round)
            r = nxt
            steps += 1
            assert steps < 2000
        assert r.result is not None


def test_deterministic() -> None:
    rules = RuleSet.preset("classic")
    positions = list(random_positions(rules, 5, 200, seed=3))
    a = [IntermediatePlayer().choose_move(o, random.Random(1)) for o in positions]
    b = [IntermediatePlayer().choose_move(o, random.Random(99)) for o in positions]
    assert a == b  # it does not even use its generator


def test_plan_keeps_combinations_together() -> None:
    rules = RuleSet.preset("standard")
    units = [str(u) for u in plan(parse_cards("S3 S4 S5 S6 H9 D9 C9 HQ DQ CK JK"), rules, False)]
    assert units == ["S3 S4 S5 S6", "H9 D9 C9", "HQ DQ", "CK", "JK"]
    # A run that would break two pairs is left as pairs.
    units = [str(u) for u in plan(parse_cards("S5 H5 S6 H6 S7"), rules, False)]
    assert units == ["S5 H5", "S6 H6", "S7"]
    # Under a revolution the weakest are the high ranks.
    units = [str(u) for u in plan(parse_cards("S3 HK D9"), rules, True)]
    assert units == ["HK", "D9", "S3"]


def test_leads_its_weakest_combination_and_keeps_pairs() -> None:
    rules = RuleSet.preset("basic")
    r = Round.start(rules, ["S4 H4 D6 HT CK C2", "S5 H7 D9 SJ", "D8 C9 H3 DQ"], leader=0)
    # D6 is its weakest lone card; the pair of 4s is a weaker unit and goes first.
    assert choose(r) == "S4 H4"
    r2 = Round.start(rules, ["H5", "S4 H4 D6 HT", "D8 C9"], leader=0).apply("H5")
    assert isinstance(r2, Round)
    # Following a single: D6, not one of its 4s (never breaks the pair).
    assert choose(r2) == "D6"


def test_keeps_joker_and_twos_early_but_presses_a_short_hand() -> None:
    rules = RuleSet.preset("basic")
    long_hand = "S3 H4 D5 S7 H9 DJ CK C2 JK"
    r = Round.start(rules, ["HA", long_hand, "D8 C9 S9 H6 D4 C5 S6 H8 CT"], leader=0).apply("HA")
    assert isinstance(r, Round)
    assert choose(r) == "pass"  # a 2 or the joker on an early ace: no
    r = Round.start(rules, ["HA CT", long_hand, "D8 C9"], leader=2)
    r = r.apply("D8")
    assert isinstance(r, Round)
    r = r.apply("HA")
    assert isinstance(r, Round)
    # Seat 0 is down to one card: now the 2 comes out.
    assert choose(r) in {"C2", "JK"}


def test_eight_cut_and_spade_three() -> None:
    rules = RuleSet.preset("standard")
    r = Round.start(rules, ["H6", "S8 D4 H4 C9 DJ SK", "D7 C7"], leader=0).apply("H6")
    assert isinstance(r, Round)
    assert choose(r) == "S8"  # cuts, then leads
    r = Round.start(rules, ["JK H5", "S3 D4 H9 CK", "D7 C7"], leader=0).apply("JK")
    assert isinstance(r, Round)
    assert choose(r) == "S3"  # the spade 3 answers the joker


def test_revolution_when_the_hand_is_weak() -> None:
    rules = RuleSet.preset("basic")
    r = Round.start(rules, ["S6 H6 D6 C6 S3 D4 H5 C7", "S2 H2 DA", "CK CQ"], leader=0)
    assert choose(r) == "S6 H6 D6 C6"
    strong = Round.start(rules, ["S6 H6 D6 C6 S2 DA HK CQ", "S3 H4 D9 CT", "C5 C4 D8 S9"], leader=0)
    assert choose(strong) != "S6 H6 D6 C6"


def test_sheds_forbidden_finish_cards_before_the_last_one() -> None:
    rules = RuleSet.preset("standard")
    # 2 and a low card: the 2 must not be the last card (top_rank is forbidden).
    r = Round.start(rules, ["S2 H4", "D9 C9 S5 SK", "D7 C7 HT"], leader=0)
    assert choose(r) == "S2"


def test_goes_out_when_it_can() -> None:
    rules = RuleSet.preset("basic")
    r = Round.start(rules, ["S9 H9", "D5 C5 SK", "D7"], leader=1).apply("D5 C5")
    assert isinstance(r, Round)
    r = r.apply("pass")
    assert isinstance(r, Round)
    assert choose(r) == "S9 H9"


def test_forbidden_finish_predicate_agrees_with_the_engine() -> None:
    """The helper the players use to avoid illegal finishes says exactly
    what the engine does, on random last plays of every preset."""
    rng = random.Random(4)
    checked = 0
    for _label, rules, players in TABLES:
        for obs in random_positions(rules, players, 60, seed=checked):
            for move in obs.legal:
                if move.form == 0:
                    continue
                hand = move.cards
                # A round where the mover holds exactly this play.
                others = [parse_cards("H7"), parse_cards("D7")][: players - 1]
                if hand & (others[0] | (others[1] if len(others) > 1 else 0)):
                    continue
                r = Round.start(rules, [hand, *others], leader=0, revolution=obs.revolution)
                out = r.apply(move)
                assert isinstance(out, Round)
                engine_says = 0 in out.penalised
                assert forbidden_finish(move, rules, obs.revolution, None) == engine_says, (
                    rules.to_json(),
                    format_cards(hand),
                )
                checked += 1
        rng.random()
    assert checked > 1000


def test_searches_briefly_under_the_rules_the_policy_was_fitted_to() -> None:
    """Under UECda's rules the level is the advanced player's search at a few playouts
    (its rollouts drawn from the learned policy, every move): legal, the same move as that
    search with the same seed, repeatable, and really a search (it overrules the policy's
    own best move). ``playouts=0`` plays the policy's best move alone."""
    from rules_engine.ai.intermediate import SEARCH_PLAYOUTS
    from rules_engine.ai.policy import FITTED_PRESETS, observation_move

    uecda = RuleSet.preset("uecda")
    assert uecda.preset_name in FITTED_PRESETS
    assert 0 < SEARCH_PLAYOUTS < (DEFAULT_BUDGET.playouts or 0) // 10
    assert IntermediatePlayer().playouts == SEARCH_PLAYOUTS
    budget = Budget(playouts=40)
    short = IntermediatePlayer(playouts=40)
    glance = IntermediatePlayer(playouts=0)
    differ = 0
    for i, obs in enumerate(random_positions(uecda, 5, 30, seed=17)):
        move = short.choose_move(obs, random.Random(i))
        assert move in obs.legal
        # Whatever budget it is handed, the level thinks for its own playouts.
        assert move == short.choose_move(obs, random.Random(i), Budget(playouts=5000))
        # (Its rollouts draw every move: no sure ways out first, as it was measured.)
        assert move == AdvancedPlayer(sure=False).choose_move(obs, random.Random(i), budget)
        assert glance.choose_move(obs, random.Random(i)) == observation_move(obs)
        differ += move != observation_move(obs)
    # The search is not the policy's glance under another name.
    assert differ >= 3, differ


def test_searches_its_exchange_under_the_fitted_rules() -> None:
    uecda = RuleSet.preset("uecda")
    checked = 0
    for seed in range(6):
        r = Round.deal(uecda, 5, f"give:{seed}", previous=[0, 1, 2, 3, 4])
        for seat in range(5):
            if not r.owed[seat]:
                continue
            obs = observe(r, seat)
            cards = IntermediatePlayer(playouts=30).choose_return(obs, random.Random(seed))
            assert cards & obs.hand == cards and count(cards) == obs.owe
            search = AdvancedPlayer(sure=False)
            expected = search.choose_return(obs, random.Random(seed), Budget(playouts=30))
            assert cards == expected
            checked += 1
    assert checked >= 6


def test_the_heuristic_in_the_sites_presets_unless_forced() -> None:
    """In the site's presets the level is the heuristic, searches nothing and ignores its
    generator; forced onto the policy it plays it there too."""
    from rules_engine.ai.heuristics import heuristic_move, observation_choice
    from rules_engine.ai.policy import observation_move

    by_rules = IntermediatePlayer()
    forced = IntermediatePlayer(policy=True, playouts=0)
    differ = 0
    for obs in random_positions(RuleSet.preset("standard"), 4, 120, seed=5):
        move = by_rules.choose_move(obs, random.Random(0))
        assert move == observation_choice(obs, heuristic_move)
        assert move == by_rules.choose_move(obs, random.Random(99))
        assert forced.choose_move(obs, random.Random(0)) == observation_move(obs)
        differ += move != observation_move(obs)
    assert differ >= 5, differ
    uecda = list(random_positions(RuleSet.preset("uecda"), 5, 40, seed=3))
    heuristic = IntermediatePlayer(policy=False)
    for obs in uecda:
        assert heuristic.choose_move(obs, random.Random(1)) == observation_choice(
            obs, heuristic_move
        )
    with pytest.raises(ValueError):
        IntermediatePlayer(playouts=-1)


def _out_surely(r: Round, seat: int) -> None:
    """Play ``seat``'s sure moves from ``r`` (its turn, a sure move found): no other seat
    may play a card before it is out."""
    before = list(r.out)
    while r.hands[seat]:
        assert r.phase == PLAY
        if r.to_act == seat:
            move = sure_move(r)
            assert move is not None, (format_cards(r.hands[seat]), str(r.top))
        else:
            legal = r.legal_moves()
            assert legal == [PASS], [str(m) for m in legal]
            move = PASS
        nxt = r.apply(move)
        assert isinstance(nxt, Round)
        r = nxt
    assert list(r.out[: len(before) + 1]) == [*before, seat]


def test_a_sure_move_is_a_sure_way_out() -> None:
    # Through the engine: in policy-played UECda rounds, whenever a seat has a sure
    # move, taking it (and its next sure moves) takes the seat out while every other
    # seat can only pass.
    rules = RuleSet.preset("uecda")
    rng = random.Random(3)
    found = {"lead": 0, "follow": 0, "own field": 0}
    for g in range(120):
        r = Round.deal(rules, 5, seed=f"sure-{g}")
        while r.phase == PLAY:
            move = sure_move(r)
            if move is not None:
                kind = "lead" if r.top is None else "own field" if r.last == r.to_act else "follow"
                found[kind] += 1
                _out_surely(r, r.to_act)
            nxt = r.apply(policy_move(r, rng, temperature=1.0))
            assert isinstance(nxt, Round)
            r = nxt
    assert min(found.values()) >= 5, found


def test_sure_moves_the_policy_draw_can_miss() -> None:
    rules = RuleSet.preset("uecda")
    # Nobody else holds anything above an 8: the pair of jacks on the 5s is out of
    # reach, and the 6s left after it are the last combination.
    r = Round.start(rules, ["S6 H6 DJ CJ", "S5 H5", "C7 D7", "H8", "C4 D4"], leader=1)
    r = r.apply("S5 H5")
    assert isinstance(r, Round) and r.to_act == 2
    r = r.apply("pass")
    assert isinstance(r, Round) and r.to_act == 3
    r = r.apply("pass")
    assert isinstance(r, Round) and r.to_act == 4
    r = r.apply("pass")
    assert isinstance(r, Round)
    assert r.to_act == 0 and str(sure_move(r)) == "DJ CJ"
    # A revolution is never a sure step before the last play; under rules this
    # reasoning does not cover there is no sure move.
    quad = Round.start(rules, ["S9 H9 D9 C9 S3", "S5", "C7", "H8", "C4"], leader=0)
    assert sure_move(quad) is None
    ff = RuleSet.preset("uecda", forbidden_finish=("top_rank",))
    assert sure_move(Round.start(ff, ["S2 JK", "S5", "C7", "H8", "C4"], leader=0)) is None
