"""Moves (RULES.md section 2): forms, every joker reading, move strings."""

import pytest
from engine_testlib import field, legal, refusal, start

from rules_engine import GROUP, PASS, SEQUENCE, SINGLE, Move, analyse
from rules_engine.cards import RANKS, parse_cards
from rules_engine.moves import JOKER_RANK, read_sequence

FORMS = {None: None, "single": SINGLE, "group": GROUP, "sequence": SEQUENCE}


def read(text, form=None, reversed_order=False, sequence_min=3):
    return analyse(parse_cards(text), FORMS[form], reversed_order, sequence_min)


def span(move):
    """The ranks a move covers, as text (``"K A 2"``)."""
    return " ".join(RANKS[r] for r in range(move.low, move.high + 1))


# -- forms ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, form_name, size",
    [
        ("S3", "single", 1),
        ("JK", "single", 1),
        ("S3 H3", "group", 2),
        ("S3 JK", "group", 2),
        ("JK JK", "group", 2),
        ("S9 H9 D9", "group", 3),
        ("S2 H2 D2 C2", "group", 4),
        ("S2 H2 D2 C2 JK", "group", 5),
        ("S2 H2 D2 C2 JK JK", "group", 6),
        ("S5 H5 JK", "group", 3),
        ("S3 S4 S5", "sequence", 3),
        ("H9 HT HJ HQ", "sequence", 4),
        ("S5 S6 JK", "sequence", 3),
        ("S5 S6 JK JK", "sequence", 4),
        ("C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK CA C2", "sequence", 13),
    ],
)
def test_forms_follow_from_the_cards(text, form_name, size):
    move = read(text)
    assert move is not None
    assert move.form_name == form_name
    assert move.size == size
    assert str(move) == text


@pytest.mark.parametrize(
    "text",
    [
        "S3 H4",  # two ranks, not a run
        "S3 S4",  # a run shorter than three
        "S3 H4 S5",  # mixed suits
        "S3 S4 S6",  # a gap and no joker
        "S3 S5 S7 JK",  # two gaps, one joker
        "S3 H3 H4",  # neither
        "S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK SA S2 JK",  # longer than 13 ranks
    ],
)
def test_cards_that_make_no_combination(text):
    assert read(text) is None


def test_sequence_min_sets_the_shortest_sequence():
    assert read("S3 S4 S5", sequence_min=4) is None
    assert read("S3 S4 S5 S6", sequence_min=4).form == SEQUENCE
    assert read("S3 S4 S5 S6", sequence_min=5) is None


def test_a_lone_joker_is_a_single_above_every_rank():
    move = read("JK")
    assert move.form == SINGLE
    assert move.rank == JOKER_RANK
    assert move.only_jokers


@pytest.mark.parametrize(
    "text, form",
    [
        ("S3 H3", "sequence"),
        ("S3 H3", "single"),
        ("S3 S4 S5", "group"),
        ("S3", "group"),
        ("S3", "sequence"),
        ("JK JK", "sequence"),
        ("JK JK", "single"),
        ("S5 S6 JK", "group"),
        ("S5 H5 JK", "sequence"),
    ],
)
def test_a_form_the_cards_cannot_take_makes_no_move(text, form):
    assert read(text, form) is None


def test_a_stated_form_that_fits_is_the_same_move():
    assert read("S3 S4 S5", "sequence") == read("S3 S4 S5")
    assert read("S9 H9", "group") == read("S9 H9")
    assert read("S9", "single") == read("S9")


# -- joker readings -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, reversed_order, covers",
    [
        # a joker fills a gap, whatever the order
        ("S3 JK S5", False, "3 4 5"),
        ("S3 JK S5", True, "3 4 5"),
        ("H9 HJ HK JK JK", False, "9 T J Q K"),
        ("H9 HJ HK JK JK", True, "9 T J Q K"),
        # a spare joker goes to the favourable end: the top normally ...
        ("S5 S6 JK", False, "5 6 7"),
        ("D9 DT DJ JK", False, "9 T J Q"),
        # ... the bottom while the order is reversed
        ("S5 S6 JK", True, "4 5 6"),
        ("D9 DT DJ JK", True, "8 9 T J"),
        # never past 2 at the top, never below 3 at the bottom
        ("SA S2 JK", False, "K A 2"),
        ("SA S2 JK", True, "K A 2"),
        ("S3 S4 JK", True, "3 4 5"),
        ("S3 S4 JK", False, "3 4 5"),
        ("S4 S5 S6 S7 S8 S9 ST SJ SQ SK SA S2 JK", False, "3 4 5 6 7 8 9 T J Q K A 2"),
        # two jokers at the ends
        ("H5 JK JK", False, "5 6 7"),
        ("H5 JK JK", True, "3 4 5"),
        ("H4 JK JK", True, "3 4 5"),
        ("H2 JK JK", False, "K A 2"),
        ("HA JK JK", False, "K A 2"),
        ("HA JK JK", True, "Q K A"),
        # one joker in a gap, one at an end
        ("S4 S6 JK JK", False, "4 5 6 7"),
        ("S4 S6 JK JK", True, "3 4 5 6"),
        ("S3 S5 JK JK", True, "3 4 5 6"),
        ("SK S2 JK JK", False, "Q K A 2"),
        ("SK S2 JK JK", True, "Q K A 2"),
    ],
)
def test_joker_readings_in_sequences(text, reversed_order, covers):
    form = "sequence" if text.count("JK") == 2 and len(text.split()) == 3 else None
    move = read(text, form, reversed_order)
    assert move is not None and move.form == SEQUENCE
    assert span(move) == covers


@pytest.mark.parametrize(
    "ranks, jokers, reversed_order, expected",
    [
        ("A2", 1, False, (10, 12)),
        ("34", 1, True, (0, 2)),
        ("34", 1, False, (0, 2)),
        ("35", 1, False, (0, 2)),
        ("35", 0, False, None),
        ("3", 2, True, (0, 2)),
        ("2", 2, False, (10, 12)),
        ("", 2, False, None),
        ("3456789TJQKA2", 1, False, None),
    ],
)
def test_read_sequence(ranks, jokers, reversed_order, expected):
    mask = sum(1 << RANKS.index(r) for r in ranks)
    assert read_sequence(mask, jokers, reversed_order) == expected


def test_a_sequence_read_under_one_order_keeps_its_reading():
    normal = read("S5 S6 JK", reversed_order=False)
    reverse = read("S5 S6 JK", reversed_order=True)
    assert normal == reverse  # the same move: same cards, same form
    assert (normal.low, normal.high) != (reverse.low, reverse.high)
    assert normal.reversed is False and reverse.reversed is True


def test_a_sequence_with_no_spare_joker_does_not_depend_on_the_order():
    assert read("S5 JK S7", reversed_order=True).reversed is None
    assert read("S5 S6 S7").reversed is None


# -- groups with jokers ----------------------------------------------------------------


def test_jokers_stand_in_for_the_groups_rank():
    for text in ("S9 JK", "S9 H9 JK", "S9 JK JK", "S9 H9 D9 C9 JK JK"):
        move = read(text, "group")
        assert move.form == GROUP
        assert move.rank == RANKS.index("9")


def test_an_all_joker_group():
    move = read("JK JK")
    assert move.form == GROUP
    assert move.rank == JOKER_RANK
    assert move.only_jokers
    assert move.size == 2


# -- one card and two jokers: the form must be stated ---------------------------------


def test_one_card_and_two_jokers_read_both_ways():
    assert read("S5 JK JK") is None
    as_group = read("S5 JK JK", "group")
    as_sequence = read("S5 JK JK", "sequence")
    assert as_group.form == GROUP and as_group.rank == RANKS.index("5")
    assert as_sequence.form == SEQUENCE and span(as_sequence) == "5 6 7"
    assert as_group != as_sequence
    assert str(as_group) == "S5 JK JK/group"
    assert str(as_sequence) == "S5 JK JK/sequence"


def test_one_card_and_two_jokers_are_only_a_group_when_sequences_need_four():
    move = read("S5 JK JK", sequence_min=4)
    assert move is not None and move.form == GROUP
    assert str(move) == "S5 JK JK"
    assert read("S5 JK JK", "sequence", sequence_min=4) is None


def test_the_round_needs_the_form_for_cards_that_read_both_ways():
    r = start(["S5 JK JK", "S9", "SK"], "party")
    assert refusal(r, "S5 JK JK") == "not_a_combination"
    assert refusal(r, "S5 JK JK", form="single") == "not_a_combination"
    assert field(r.apply("S5 JK JK", form="group")) == "S5 JK JK/group"
    assert field(r.apply("S5 JK JK", form="sequence")) == "S5 JK JK/sequence"


def test_both_readings_are_listed_as_legal_leads():
    r = start(["S5 JK JK", "S9", "SK"], "party")
    assert legal(r) == sorted(["S5", "JK", "S5 JK", "JK JK", "S5 JK JK/group", "S5 JK JK/sequence"])


def test_the_round_reads_a_sequence_joker_by_the_current_order():
    normal = start(["S5 S6 JK", "S9", "SK"])
    reverse = start(["S5 S6 JK", "S9", "SK"], in_revolution=True)
    assert span(normal.move("S5 S6 JK")) == "5 6 7"
    assert span(reverse.move("S5 S6 JK")) == "4 5 6"
    assert normal.move("S5 S6 JK", form="group").reason == "not_a_combination"


# -- move strings and identity ----------------------------------------------------------


def test_move_strings_are_canonical():
    assert read("JK HT S9 ST") is None
    assert str(read("JK HT ST")) == "ST HT JK"
    assert str(read("C3 JK S3")) == "S3 C3 JK"
    assert str(read("S7 S5 S6")) == "S5 S6 S7"
    assert str(PASS) == "pass"
    assert PASS.is_pass and not read("S3").is_pass


def test_moves_are_equal_by_cards_and_form():
    a = read("S3 S4 S5")
    b = read("S5 S3 S4")
    assert a == b and hash(a) == hash(b)
    assert read("S3") != read("H3")
    assert len({a, b, read("S3"), read("S3")}) == 2
    assert Move(parse_cards("S3"), SINGLE) == read("S3")


def test_legal_strings_are_canonical_and_distinct():
    r = start(["C3 S3 H3 JK", "S9", "SK"])
    moves = r.legal_strings()
    assert len(moves) == len(set(moves))
    for text in moves:
        assert text == str(read(text))
    assert "S3 H3 C3 JK" in moves
