"""A round (RULES.md section 4): the seeded deal, hand_size, the first leader, the end."""

import random

import pytest
from engine_testlib import ALL_PRESETS, act, legal, play, random_playout, refusal, start

from rules_engine import Refusal, Round, RuleSet
from rules_engine.cards import (
    RANKS,
    SUITS,
    CardError,
    card_index,
    count,
    format_cards,
    full_deck,
    parse_cards,
)


def holder(r, code):
    bit = 1 << card_index(code)
    return next((s for s, h in enumerate(r.hands) if h & bit), None)


# -- the deal --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 42, "abc"])
def test_a_seeded_deal_is_reproducible(seed):
    rules = RuleSet.preset("standard")
    a = Round.deal(rules, 4, seed)
    b = Round.deal(rules, 4, seed)
    assert a.hands == b.hands
    assert a == b


def test_different_seeds_deal_differently():
    rules = RuleSet.preset("standard")
    deals = {Round.deal(rules, 4, seed).hands for seed in range(20)}
    assert len(deals) == 20


def test_a_pinned_deal():
    # pins the shuffle: a change here changes the replay of every stored game
    r = Round.deal(RuleSet.preset("standard"), 4, 1)
    assert [format_cards(h) for h in r.hands] == [
        "D3 H5 D5 C6 H7 D7 H8 C8 D9 HT DK SA DA S2",
        "C3 H4 C4 S5 H6 H9 CT SJ DJ SQ SK HA C2",
        "D4 C5 S6 C7 D8 C9 DT HJ DQ CK H2 D2 JK",
        "S3 H3 S4 D6 S7 S8 S9 ST CJ HQ CQ HK CA",
    ]


@pytest.mark.parametrize(
    "players, jokers, sizes",
    [
        (2, 1, [27, 26]),
        (3, 1, [18, 18, 17]),
        (4, 1, [14, 13, 13, 13]),
        (4, 0, [13, 13, 13, 13]),
        (4, 2, [14, 14, 13, 13]),
        (5, 1, [11, 11, 11, 10, 10]),
        (6, 1, [9, 9, 9, 9, 9, 8]),
        (6, 2, [9, 9, 9, 9, 9, 9]),
    ],
)
def test_the_whole_deck_is_dealt_one_at_a_time_from_seat_0(players, jokers, sizes):
    rules = RuleSet.preset("basic", jokers=jokers)
    for seed in range(3):
        r = Round.deal(rules, players, seed)
        assert [count(h) for h in r.hands] == sizes
        assert sum(r.hands) == full_deck(jokers)
        assert r.facedown == 0


@pytest.mark.parametrize("players, hand_size", [(2, 13), (4, 5), (3, 1), (6, 8)])
def test_hand_size_leaves_the_rest_face_down(players, hand_size):
    rules = RuleSet.preset("standard", hand_size=hand_size)
    for seed in range(5):
        r = Round.deal(rules, players, seed)
        assert [count(h) for h in r.hands] == [hand_size] * players
        assert count(r.facedown) == 53 - hand_size * players
        assert sum(r.hands) + r.facedown == full_deck(1)
        assert r.facedown & sum(r.hands) & ((1 << 52) - 1) == 0


def test_the_one_on_one_game_sets_27_cards_aside():
    r = Round.deal(RuleSet.from_json({"preset": "standard", "hand_size": 13}), 2, 9)
    assert r.counts() == (13, 13)
    assert count(r.facedown) == 27


@pytest.mark.parametrize("players", [1, 7])
def test_a_table_has_2_to_6_players(players):
    with pytest.raises(ValueError):
        Round.deal(RuleSet.preset("basic"), players, 1)
    with pytest.raises(ValueError):
        Round.start(RuleSet.preset("basic"), ["S3"] * players if players == 1 else [""] * 7)


def test_start_refuses_impossible_hands():
    rules = RuleSet.preset("standard")
    with pytest.raises(CardError):
        Round.start(rules, ["S3 H4", "S3"])
    with pytest.raises(CardError):
        Round.start(rules, ["JK", "JK"])  # one joker in this deck
    with pytest.raises(CardError):
        Round.start(rules, ["S1", "S3"])
    with pytest.raises(ValueError):
        Round.start(rules, ["S3", "S4"], leader=2)
    with pytest.raises(ValueError):
        Round.start(rules, ["S3", "S4", "S5"], previous=[0, 0, 1])


# -- the first leader -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_holder_of_the_diamond_3_leads_the_first_round(preset, players):
    rules = RuleSet.preset(preset)
    for seed in range(4):
        r = Round.deal(rules, players, seed)
        assert r.to_act == holder(r, "D3")
        assert r.first_leader == r.to_act
        assert r.phase_name == "play"


def weakest_holder(hands):
    for rank in RANKS:
        for suit in "CDHS":
            bit = 1 << card_index(suit + rank)
            for seat, hand in enumerate(hands):
                if hand & bit:
                    return seat
    return None


@pytest.mark.parametrize(
    "hands, leader",
    [
        (["S3 H5", "C3 D9", "H3"], 1),  # clubs first
        (["S3 H5", "H3 D9", "S4"], 1),  # then hearts... after diamonds
        (["H3 H5", "S3 D9", "S4"], 0),
        (["S4", "H5", "C4"], 2),
        (["D4 S4", "H4", "C5"], 0),
        (["S4 D4", "H4 C4", "C5"], 1),
        (["JK S9", "HT", "C2"], 0),
        (["D3 S2", "C3", "H3"], 0),  # the diamond 3 first of all
    ],
)
def test_without_the_diamond_3_the_weakest_card_leads(hands, leader):
    r = start(hands, "standard", leader=None)
    assert r.to_act == leader


@pytest.mark.parametrize("seed", range(12))
def test_a_short_deal_leads_with_the_weakest_card(seed):
    rules = RuleSet.preset("standard", hand_size=4)
    r = Round.deal(rules, 2, seed)
    expected = holder(r, "D3")
    if expected is None:
        expected = weakest_holder(r.hands)
    assert r.to_act == expected


@pytest.mark.parametrize(
    "first, second", [("C", "D"), ("C", "H"), ("C", "S"), ("D", "H"), ("D", "S"), ("H", "S")]
)
def test_weakest_card_ties_go_c_d_h_s(first, second):
    assert {first, second} <= set(SUITS)
    r = start([second + "4 SK", first + "4 HK"], "standard", leader=None)
    assert r.to_act == 1
    r = start([first + "4 SK", second + "4 HK"], "standard", leader=None)
    assert r.to_act == 0


def test_later_rounds_are_led_by_the_previous_last_place():
    r = start(["S4 S5", "H4 H5", "C4 C5"], "basic", leader=None, previous=[2, 0, 1])
    assert r.phase_name == "exchange"  # 3 players: the last place gives the first one card
    assert r.hands[2] == parse_cards("C4 C5 H5")
    r = r.give(2, "C4")
    assert r.phase_name == "play"
    assert r.to_act == 1


def test_a_previous_round_at_two_players_sets_the_leader_but_no_exchange():
    r = start(["S4 S5", "H4 H5"], "standard", leader=None, previous=[0, 1])
    assert r.phase_name == "play"
    assert r.to_act == 1
    assert r.hands == (parse_cards("S4 S5"), parse_cards("H4 H5"))


# -- the end of a round ---------------------------------------------------------------------------


def test_the_round_ends_when_one_player_holds_cards():
    r = start(["S5", "H7 H9", "C8"], "basic")
    r = play(r, "S5")
    assert r.out == (0,) and not r.over
    r = play(r, "H7", "C8")
    assert r.over
    assert r.phase_name == "over"
    assert r.result == (0, 2, 1)
    assert r.titles() == ("fugo", "hinmin", "heimin")
    assert r.to_act == -1
    assert r.legal_moves() == []


def test_every_action_after_the_end_is_refused_as_round_over():
    r = play(start(["S5", "H7"], "basic"), "S5")
    assert r.over
    assert refusal(r, "H7") == "round_over"
    assert refusal(r, "pass") == "round_over"
    assert refusal(r, "H7", seat=1) == "round_over"
    out = r.give(1, "H7")
    assert isinstance(out, Refusal) and out.reason == "round_over"


def test_a_refusal_is_falsy_and_the_round_is_unchanged():
    r = start(["S5 S6", "H7"], "basic")
    out = r.apply("H7", seat=1)
    assert not out
    assert isinstance(out, Refusal)
    assert out.reason == "not_your_turn"
    assert act(r, "S5") != r


def test_card_text_that_is_not_a_card_raises():
    r = start(["S5 S6", "H7"], "basic")
    with pytest.raises(CardError):
        r.apply("S1")


def test_cards_not_held_are_refused():
    r = start(["S5 S6", "H7 JK"], "basic")
    assert refusal(r, "H7") == "not_in_hand"
    assert refusal(r, "JK") == "not_in_hand"
    assert refusal(r, "S5 S6 S7") == "not_in_hand"


def test_not_in_hand_comes_before_not_a_combination():
    r = start(["S5 S6", "H7 JK"], "basic")
    assert refusal(r, "S5 H9") == "not_in_hand"
    assert refusal(r, "S5 S6") == "not_a_combination"


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_rounds_end_with_a_full_result(preset, players):
    rng = random.Random(f"{preset}{players}")
    for seed in range(3):
        states = list(random_playout(Round.deal(RuleSet.preset(preset), players, seed), rng))
        end = states[-1]
        assert end.over
        assert sorted(end.result) == list(range(players))
        assert len(end.titles()) == players
        holding = {s for s in range(players) if end.hands[s]}
        assert len(holding) <= 1
        assert set(end.out) | holding == set(range(players))
        assert len(end.out) == len(set(end.out))
        # penalised players sit at the bottom, the first penalised last
        k = len(end.penalised)
        if k:
            assert end.result[players - k :] == tuple(reversed(end.penalised))


def test_legal_moves_are_empty_outside_the_play_phase():
    r = start(["S4 S5", "H4 H5", "C4 C5"], "basic", leader=None, previous=[0, 1, 2])
    assert r.phase_name == "exchange"
    assert r.legal_moves() == []
    assert legal(r) == []


def test_with_hands_keeps_the_position_and_only_swaps_the_hands():
    r = Round.deal(RuleSet.preset("standard"), 4, seed=5)
    r = act(r, legal(r)[0])
    hands = list(r.hands)
    a, b = next(
        (a, b) for a in range(4) for b in range(a + 1, 4) if count(hands[a]) == count(hands[b])
    )
    hands[a], hands[b] = hands[b], hands[a]
    other = r.with_hands(hands)
    assert other.hands == tuple(hands)
    assert (other.to_act, other.top, other.history) == (r.to_act, r.top, r.history)
    assert r.hands != other.hands  # the original is untouched
    with pytest.raises(ValueError, match="number of cards"):
        r.with_hands([hands[0] | hands[1], 0, hands[2], hands[3]])
    with pytest.raises(ValueError, match="number of cards"):
        r.with_hands(hands[:3])
