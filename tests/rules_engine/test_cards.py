"""Cards and notation (RULES.md section 1): codes, parsing, canonical order, decks."""

import random

import pytest

from rules_engine.cards import (
    JOKER_UNIT,
    RANKS,
    SUITS,
    CardError,
    card_code,
    card_codes,
    card_index,
    contains,
    count,
    deck_list,
    describe_card,
    format_cards,
    full_deck,
    jokers,
    parse_cards,
    rank_counts,
    real,
    suit_lanes,
)

ALL_CODES = [s + r for r in RANKS for s in SUITS]


def test_ranks_weakest_to_strongest_and_suits():
    assert RANKS == "3456789TJQKA2"
    assert SUITS == "SHDC"


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_card_code_round_trips(code):
    assert card_code(card_index(code)) == code
    assert format_cards(parse_cards(code)) == code
    assert count(parse_cards(code)) == 1


def test_52_distinct_ordinary_cards():
    indices = {card_index(code) for code in ALL_CODES}
    assert indices == set(range(52))


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("HT S3 JK", "S3 HT JK"),
        ("C3 S4 JK S3", "S3 C3 S4 JK"),
        ("C2 S2 H2 D2", "S2 H2 D2 C2"),
        ("JK S2 JK D3", "D3 S2 JK JK"),
        ("SA S2 SK", "SK SA S2"),
        ("DT D9 H9", "H9 D9 DT"),
        ("", ""),
    ],
)
def test_canonical_order_rank_then_s_h_d_c_jokers_last(text, canonical):
    assert format_cards(parse_cards(text)) == canonical


def test_canonical_order_of_the_whole_deck():
    codes = ALL_CODES[:]
    random.Random(3).shuffle(codes)
    expected = [s + r for r in RANKS for s in SUITS] + ["JK"]
    assert card_codes(parse_cards(" ".join(codes + ["JK"]))) == expected


def test_parse_accepts_a_list_of_codes():
    assert parse_cards(["HT", "S3", "JK"]) == parse_cards("S3 HT JK")


def test_describe_card_uses_suit_symbols_and_10():
    assert describe_card(card_index("HT")) == "♥10"
    assert describe_card(card_index("S3")) == "♠3"
    assert describe_card(card_index("CA")) == "♣A"


@pytest.mark.parametrize("code", ["S1", "s3", "S10", "X3", "3S", "J", "JJ", "SK2", "10"])
def test_unknown_codes_are_refused(code):
    with pytest.raises(CardError, match="unknown card"):
        parse_cards(code)


def test_a_repeated_ordinary_card_is_refused():
    with pytest.raises(CardError, match="twice"):
        parse_cards("S3 H4 S3")


@pytest.mark.parametrize(
    "text, max_jokers, ok",
    [
        ("JK JK", 2, True),
        ("JK JK JK", 2, False),
        ("JK", 1, True),
        ("JK JK", 1, False),
        ("JK", 0, False),
        ("S3", 0, True),
    ],
)
def test_joker_count_is_bounded(text, max_jokers, ok):
    if ok:
        assert jokers(parse_cards(text, max_jokers)) == text.split().count("JK")
    else:
        with pytest.raises(CardError, match="joker"):
            parse_cards(text, max_jokers)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_two_jokers_are_one_card_counted_twice():
    cards = parse_cards("JK S2 JK")
    assert jokers(cards) == 2
    assert real(cards) == parse_cards("S2")
    assert count(cards) == 3
    assert card_codes(cards) == ["S2", "JK", "JK"]


@pytest.mark.parametrize("n_jokers", [0, 1, 2])
def test_deck_with_0_1_2_jokers(n_jokers):
    deck = full_deck(n_jokers)
    assert count(deck) == 52 + n_jokers
    assert jokers(deck) == n_jokers
    codes = card_codes(deck)
    assert codes.count("JK") == n_jokers
    assert len(set(codes) - {"JK"}) == 52
    listed = deck_list(n_jokers)
    assert len(listed) == 52 + n_jokers
    assert sum(listed) == deck
    assert all(count(card) == 1 for card in listed)
    assert listed.count(JOKER_UNIT) == n_jokers


def test_contains_counts_jokers():
    hand = parse_cards("S3 JK JK")
    assert contains(hand, parse_cards("JK S3"))
    assert contains(hand, parse_cards("JK JK"))
    assert not contains(parse_cards("S3 JK"), parse_cards("JK JK"))
    assert not contains(parse_cards("S3"), parse_cards("JK"))
    assert not contains(parse_cards("S3 S4"), parse_cards("S3 H4"))
    assert contains(hand, 0)


def test_rank_counts():
    counts = rank_counts(parse_cards("S3 H3 D3 C2 JK"))
    assert counts[0] == 3
    assert counts[12] == 1
    assert sum(counts) == 4


def lane(lanes, suit):
    return (lanes >> (16 * suit)) & 0x1FFF


@pytest.mark.parametrize(
    "text, expected",
    [
        ("S3 S5 H2", {"S": {"3", "5"}, "H": {"2"}}),
        ("C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK CA C2", {"C": set(RANKS)}),
        ("D9 HK SA CT", {"D": {"9"}, "H": {"K"}, "S": {"A"}, "C": {"T"}}),
        ("JK JK", {}),
        ("", {}),
    ],
)
def test_suit_lanes_hold_each_suits_ranks(text, expected):
    lanes = suit_lanes(parse_cards(text))
    for s, suit in enumerate(SUITS):
        ranks = {RANKS[r] for r in range(13) if lane(lanes, s) >> r & 1}
        assert ranks == expected.get(suit, set())


def test_suit_lanes_agree_with_a_plain_computation_on_random_hands():
    rng = random.Random(11)
    for _ in range(200):
        codes = rng.sample(ALL_CODES, rng.randint(0, 52))
        lanes = suit_lanes(parse_cards(codes))
        for s, suit in enumerate(SUITS):
            want = sum(1 << RANKS.index(c[1]) for c in codes if c[0] == suit)
            assert lane(lanes, s) == want
