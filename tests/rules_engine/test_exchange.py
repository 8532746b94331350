"""The exchange (RULES.md section 4): automatic strongest gifts and chosen returns."""

import pytest
from engine_testlib import refusal, start

from rules_engine import Refusal, strongest_cards
from rules_engine.cards import format_cards, parse_cards


def hands(r):
    return [format_cards(h) for h in r.hands]


def give_refused(r, seat, text):
    before = hands(r), r.owed, r.phase
    out = r.give(seat, text)
    assert isinstance(out, Refusal), f"give {text!r} by {seat} accepted"
    assert (hands(r), r.owed, r.phase) == before
    return out.reason


@pytest.mark.parametrize(
    "hand, k, gift",
    [
        ("D2 S2 H2 C5", 2, "S2 H2"),  # equal ranks: S H D C
        ("C2 D2 H2", 1, "H2"),
        ("C2 D2", 2, "D2 C2"),
        ("JK S4 C3", 2, "S4 JK"),  # the joker first
        ("JK S4 C3", 1, "JK"),
        ("JK JK S2", 2, "JK JK"),
        ("JK JK S2", 1, "JK"),
        ("SA HK DK", 2, "HK SA"),  # 2 A K ..., then H before D
        ("C3 D3 H3 S3", 2, "S3 H3"),
        ("CA DA S3", 2, "DA CA"),
        ("S3", 2, "S3"),
    ],
)
def test_strongest_cards(hand, k, gift):
    assert format_cards(strongest_cards(parse_cards(hand), k)) == gift


def test_four_players_bottom_gives_two_and_second_bottom_gives_one():
    r = start(
        ["C3 C4", "D3 D4", "D2 S2 H2 C5", "JK S4"],
        "standard",
        leader=None,
        previous=[1, 0, 3, 2],
    )
    # seat 2 (last) gives S2 H2 to seat 1 (first); seat 3 gives the joker to seat 0
    assert r.phase_name == "exchange"
    assert r.to_act == -1
    assert hands(r) == ["C3 C4 JK", "D3 D4 S2 H2", "C5 D2", "S4"]
    assert r.owed == (1, 2, 0, 0)
    assert r.legal_moves() == []
    r = r.give(1, "S2 D3")  # a received card may go back
    assert not isinstance(r, Refusal)
    assert r.phase_name == "exchange"
    r = r.give(0, "JK")
    assert r.phase_name == "play"
    assert hands(r) == ["C3 C4", "D4 H2", "D3 C5 S2 D2", "S4 JK"]
    assert r.to_act == 2  # the previous last place leads


def test_returns_may_come_in_any_order():
    kw = {"leader": None, "previous": [0, 1, 2, 3]}
    r = start(["S3 S4 S5", "H3 H4 H5", "D3 D4 D5", "C3 C4 C5"], "basic", **kw)
    a = r.give(0, "S3 S4").give(1, "H3")
    b = r.give(1, "H3").give(0, "S3 S4")
    assert a.hands == b.hands
    assert a.phase_name == b.phase_name == "play"
    assert a.to_act == b.to_act == 3


def test_bad_exchange_wrong_number_or_nothing_owed():
    r = start(["S3 S4 S5", "H3 H4 H5", "D3 D4 D5", "C3 C4 C5"], "basic", previous=[0, 1, 2, 3])
    assert r.owed == (2, 1, 0, 0)
    assert give_refused(r, 0, "S3") == "bad_exchange"
    assert give_refused(r, 0, "S3 S4 S5") == "bad_exchange"
    assert give_refused(r, 1, "H3 H4") == "bad_exchange"
    assert give_refused(r, 3, "C3") == "bad_exchange"  # the giver owes nothing back
    assert give_refused(r, 2, "D3") == "bad_exchange"
    r = r.give(1, "H3")
    assert give_refused(r, 1, "H4") == "bad_exchange"  # already returned


def test_not_in_hand_comes_before_bad_exchange():
    r = start(["S3 S4 S5", "H3 H4 H5", "D3 D4 D5", "C3 C4 C5"], "basic", previous=[0, 1, 2, 3])
    assert give_refused(r, 0, "H3") == "not_in_hand"
    assert give_refused(r, 3, "S9") == "not_in_hand"
    assert give_refused(r, 9, "S3") == "not_your_turn"


def test_wrong_phase_play_during_the_exchange_and_give_during_play():
    r = start(["S3 S4 S5", "H3 H4 H5", "D3 D4 D5", "C3 C4 C5"], "basic", previous=[0, 1, 2, 3])
    assert refusal(r, "S3", seat=0) == "wrong_phase"
    assert refusal(r, "C3") == "wrong_phase"
    assert refusal(r, "pass") == "wrong_phase"
    r = r.give(0, "S3 S4").give(1, "H3")
    assert r.phase_name == "play"
    assert give_refused(r, 0, "S5") == "wrong_phase"


def test_three_players_one_card_between_bottom_and_top():
    r = start(["S3 S4", "H3 H4", "D3 D4 JK"], "basic", leader=None, previous=[0, 1, 2])
    assert hands(r) == ["S3 S4 JK", "H3 H4", "D3 D4"]
    assert r.owed == (1, 0, 0)
    assert give_refused(r, 1, "H3") == "bad_exchange"
    r = r.give(0, "S3")
    assert hands(r) == ["S4 JK", "H3 H4", "S3 D3 D4"]
    assert r.to_act == 2


@pytest.mark.parametrize("players", [5, 6])
def test_five_and_six_players_exchange_like_four(players):
    suits_ranks = ["S3 S4 S5", "H3 H4 H5", "D3 D4 D5", "C3 C4 C5", "S6 S7 S8", "H6 H7 H8"]
    previous = list(range(players))
    r = start(suits_ranks[:players], "classic", leader=None, previous=previous)
    owed = [0] * players
    owed[0], owed[1] = 2, 1
    assert list(r.owed) == owed
    last, second_last = players - 1, players - 2
    strongest = {5: ("S7 S8", "C5"), 6: ("H7 H8", "S8")}[players]
    assert r.hands[0] == parse_cards(suits_ranks[0]) + parse_cards(strongest[0])
    assert r.hands[1] == parse_cards(suits_ranks[1]) + parse_cards(strongest[1])
    assert r.hands[last] == parse_cards(suits_ranks[last]) - parse_cards(strongest[0])
    assert r.hands[second_last] == parse_cards(suits_ranks[second_last]) - parse_cards(strongest[1])
    # the middle (heimin) keep their hands
    for seat in range(2, players - 2):
        assert r.hands[seat] == parse_cards(suits_ranks[seat])
    r = r.give(0, "S3 S4").give(1, "H3")
    assert r.phase_name == "play"
    assert r.to_act == last


def test_two_players_never_exchange():
    r = start(["S3 S4", "H2 JK"], "standard", leader=None, previous=[0, 1])
    assert r.phase_name == "play"
    assert hands(r) == ["S3 S4", "H2 JK"]
    assert r.owed == (0, 0)


def test_the_exchange_is_recorded():
    r = start(["S3 S4 S5", "H3 H4 H5", "D3 D4 D5", "C3 C4 C5"], "basic", previous=[0, 1, 2, 3])
    auto = [(g, rcv, format_cards(c), a) for g, rcv, c, a in r.exchange]
    assert auto == [(3, 0, "C4 C5", True), (2, 1, "D5", True)]
    r = r.give(0, "S3 C5").give(1, "H3")
    assert [(g, rcv, format_cards(c), a) for g, rcv, c, a in r.exchange[2:]] == [
        (0, 3, "S3 C5", False),
        (1, 2, "H3", False),
    ]


def test_a_seat_emptied_by_its_gift_plays_on_with_the_cards_returned():
    # hand_size 2 (or 1) makes this happen in a dealt round: the last place holds
    # exactly the cards it must give.
    r = start(
        ["S3 S4 S5", "H3 H4 H5", "D3 D4 D5", "C5 C6"], "basic", previous=[0, 1, 2, 3], leader=None
    )
    assert r.hands[3] == 0
    r = r.give(0, "S3 S4").give(1, "H3")
    assert hands(r)[3] == "S3 S4"
    # RULES.md section 4: the previous round's last place leads
    assert r.to_act == 3
    r = r.apply("S3")
    assert not isinstance(r, Refusal)
    assert r.to_act == 0
