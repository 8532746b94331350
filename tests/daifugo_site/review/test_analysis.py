"""The review's search: honest (a function of the observation), and it finds mistakes."""

from __future__ import annotations

import random

from daifugo_site.review import analysis
from rules_engine import Action, Refusal, Round, RuleSet, observe, round_from_observation
from rules_engine.cards import JOKER_SHIFT, JOKER_UNIT, REAL_MASK, count, iter_indices

from .conftest import PLANTED_INDEX, PLANTED_SEED, scripted_actions

BUDGET = analysis.Budget(worlds=16)


def reshuffled(r: Round, seat: int, rng: random.Random) -> Round:
    """The same table for ``seat``: the other hands redealt from the same hidden cards
    (each keeps its count), as round_from_observation builds a world."""
    obs = observe(r, seat)
    hidden: list[int] = []
    for s in range(r.n):
        if s != seat:
            hidden += [1 << c for c in iter_indices(r.hands[s] & REAL_MASK)]
            hidden += [JOKER_UNIT] * (r.hands[s] >> JOKER_SHIFT)
    rng.shuffle(hidden)
    hands, at = [], 0
    for s in range(r.n):
        if s == seat:
            hands.append(r.hands[s])
            continue
        k = count(r.hands[s])
        hands.append(sum(hidden[at : at + k]))
        at += k
    return round_from_observation(obs, hands)


def test_review_is_identical_when_the_other_hands_are_reshuffled() -> None:
    m, _ = scripted_actions(PLANTED_SEED, stop=20)
    decisions = analysis.decisions(m.to_record(), 0)
    assert decisions
    checked = 0
    for d in decisions[:3]:
        # The true position before the decision, from the replay.
        rec = m.to_record()
        rec["actions"] = rec["actions"][: d.index]
        from rules_engine import Match

        r = Match.from_record(rec).round
        other = reshuffled(r, 0, random.Random(d.index))
        assert other.hands != r.hands  # really other hidden hands
        assert observe(other, 0) == observe(r, 0)  # the same view for seat 0
        a = analysis.review_decision(observe(r, 0), d.action, f"s{d.index}", BUDGET)
        b = analysis.review_decision(observe(other, 0), d.action, f"s{d.index}", BUDGET)
        assert a == b
        checked += 1
    assert checked == 3


def test_a_clear_mistake_is_flagged_and_the_right_move_preferred() -> None:
    # Two cards each way: leading S2 first wins; S3 first lets anyone beat it.
    r = Round.start(RuleSet.preset("basic"), ["S2 S3", "HK", "D4"], leader=0)
    obs = observe(r, 0)
    bad = analysis.review_decision(obs, Action.play(0, "S3"), "t", BUDGET)
    assert bad["mistake"] and bad["best"] == "S2" and bad["cost"] > 0.5
    assert bad["cost"] > 2 * bad["cost_se"]
    good = analysis.review_decision(obs, Action.play(0, "S2"), "t", BUDGET)
    assert not good["mistake"] and good["best"] == "S2" and good["cost"] == 0


def test_the_planted_endgame_mistake_gets_the_solvers_exact_verdict() -> None:
    m, _ = scripted_actions(PLANTED_SEED)
    found = {d.index: d for d in analysis.decisions(m.to_record(), 0)}
    d = found[PLANTED_INDEX]
    assert analysis.exact_world(d.obs) is not None
    result = analysis.review_decision(d.obs, d.action, "t", BUDGET)
    verdict = result["verdict"]
    assert result["made"] == "S3" and result["mistake"]
    assert verdict["winnable"] and not verdict["made_wins"]
    assert result["best"] in verdict["winning"]
    assert result["cost"] == verdict["win_points"] - verdict["lose_points"] == 1
    assert result["cost_se"] == 0


def test_decisions_leave_out_forced_moves() -> None:
    m, _ = scripted_actions(PLANTED_SEED)
    for d in analysis.decisions(m.to_record(), 0):
        assert len(d.obs.legal) > 1
        assert d.obs.seat == 0 and d.obs.my_turn


def test_hint_suggests_a_legal_move_with_figures() -> None:
    r = Round.start(RuleSet.preset("basic"), ["S2 S3", "HK", "D4"], leader=0)
    result = analysis.hint(observe(r, 0), "h", BUDGET)
    assert result["kind"] == "hint" and result["best"] == "S2"
    assert "best_mean" in result and "obvious" in result


def test_exchange_returns_are_reviewed_among_other_returns() -> None:
    m, _ = scripted_actions(21, rounds=3)
    gives = [d for d in analysis.decisions(m.to_record(), 0) if d.action.kind == "give"]
    assert gives
    d = gives[0]
    result = analysis.review_decision(d.obs, d.action, "t", BUDGET)
    assert result["kind"] == "give" and result["candidates"] > 1
    assert result["made"] in result["means"] and result["best"] in result["means"]
    assert result["best_mean"] == max(result["means"].values())


def _exchange_decision(seed: int):  # type: ignore[no-untyped-def]
    m, _ = scripted_actions(seed, rounds=3)
    d = next(
        d for d in analysis.decisions(m.to_record(), 0) if d.action.kind == "give" and d.pending
    )
    return m, d


def _table_after_exchange(m, index: int) -> Round:  # type: ignore[no-untyped-def]
    """The real round once every return of that exchange is made."""
    from rules_engine import Match

    rec = m.to_record()
    actions = rec["actions"]
    rec["actions"] = actions[:index]
    r = Match.from_record(rec).round
    for a in actions[index:]:
        act = Action.from_json(a)
        if act.kind != "give":
            break
        r = r.give(act.seat, act.cards)  # type: ignore[arg-type,assignment]
    return r


def test_return_worlds_make_the_returns_others_still_owe() -> None:
    from rules_engine import strongest_cards
    from rules_engine.cards import contains

    for seed in (21, 22):
        m, d = _exchange_decision(seed)
        assert d.pending and all(p.seat != 0 and p.to != 0 for p in d.pending)
        worlds = analysis.ExchangeWorlds(d.obs, d.pending, "w")
        real = _table_after_exchange(m, d.index)
        assert real.phase_name == "play"
        for _ in range(30):
            before = worlds.before_returns()
            assert tuple(count(h) for h in before) == d.obs.counts
            for p in d.pending:
                # The giver got its partner's strongest cards: the strongest of the two
                # hands together are with the giver.
                top = strongest_cards(before[p.seat] + before[p.to], p.owe)
                assert contains(before[p.seat], top)
        for j in range(30):
            hands = worlds.hands(j)
            r = round_from_observation(d.obs, hands).give(0, d.action.cards)  # type: ignore[arg-type]
            assert not isinstance(r, Refusal)
            # Once the seat's own return is made, the table has the real card counts and
            # is in play: the return is judged on the round that really follows.
            assert r.counts() == real.counts() and r.phase_name == "play"


def test_a_return_is_reviewed_with_the_pending_returns() -> None:
    _m, d = _exchange_decision(22)
    a = analysis.review_decision(d.obs, d.action, "t", BUDGET, d.pending)
    b = analysis.review_decision(d.obs, d.action, "t", BUDGET, d.pending)
    assert a == b and a["kind"] == "give" and a["worlds"] >= 1
    assert a["made"] in a["means"] and a["best"] in a["means"]


def test_the_planted_early_strong_is_flagged_by_sampling_with_its_reasons() -> None:
    from .conftest import EARLY_STRONG_INDEX, planted_early_strong

    m, planted = planted_early_strong()
    assert planted == EARLY_STRONG_INDEX
    d = {d.index: d for d in analysis.decisions(m.to_record(), 0)}[planted]
    result = analysis.review_decision(d.obs, d.action, "planted", analysis.Budget(worlds=120))
    assert result["verdict"] is None  # estimated, not solved
    assert result["mistake"] and result["cost"] >= 0.5 and result["best"] != result["made"]
    assert "early" in [f["kind"] for f in result["facts"]]
    # The heuristic's own move at the same place is no mistake.
    good = analysis.review_decision(
        d.obs, analysis.move_action(0, analysis.candidates(d.obs, 1)[0]), "planted", BUDGET
    )
    assert not good["mistake"]
