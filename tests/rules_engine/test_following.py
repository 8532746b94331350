"""Following (RULES.md section 2): same form and count, strictly stronger, the current order."""

import pytest
from engine_testlib import act, field, legal, refusal, start

# Seat 0 leads; seat 1 answers. Seat 2 holds a spare card so the round goes on.
SPARE = "C4 C6"


def after_lead(lead, answer_hand, preset="basic", **kw):
    r = start([lead + " D4", answer_hand, SPARE], preset, **kw)
    return act(r, lead)


# -- form and count --------------------------------------------------------------------


@pytest.mark.parametrize(
    "lead, attempt, reason",
    [
        ("S7", "H9 D9", "wrong_form"),
        ("S7", "H9 HT HJ", "wrong_form"),
        ("S7 H7", "D9", "wrong_form"),
        ("S7 H7", "H9 HT HJ", "wrong_form"),
        ("S7 H7", "H9 D9 C9", "wrong_count"),
        ("S7 H7 D7", "H9 D9", "wrong_count"),
        ("S5 S6 S7", "H9", "wrong_form"),
        ("S5 S6 S7", "H9 D9 C9", "wrong_form"),
        ("S5 S6 S7", "H9 HT HJ HQ", "wrong_count"),
        ("S5 S6 S7 S8", "H9 HT HJ", "wrong_count"),
    ],
)
def test_a_follower_matches_form_then_count(lead, attempt, reason):
    r = after_lead(lead, "H9 D9 C9 HT HJ HQ")
    assert refusal(r, attempt) == reason


def test_wrong_form_comes_before_wrong_count():
    r = after_lead("S7", "H9 D9 C9")
    assert refusal(r, "H9 D9 C9") == "wrong_form"


# -- singles and groups: strictly stronger rank ----------------------------------------------


def test_singles_must_be_strictly_stronger():
    r = after_lead("S7", "H6 H7 H8 D2 JK")
    assert refusal(r, "H6") == "not_stronger"
    assert refusal(r, "H7") == "not_stronger"
    assert legal(r) == sorted(["pass", "H8", "D2", "JK"])


def test_groups_compare_rank_and_jokers_stand_in():
    r = after_lead("S7 H7", "D7 C7 D8 JK")
    assert refusal(r, "D7 C7") == "not_stronger"
    assert refusal(r, "D7 JK") == "not_stronger"
    assert legal(r) == sorted(["pass", "D8 JK"])
    assert field(act(r, "D8 JK")) == "D8 JK"


def test_an_all_joker_group_beats_every_group_of_its_size():
    r = after_lead("S2 H2", "JK JK D3", jokers=2)
    assert legal(r) == sorted(["pass", "JK JK"])
    assert field(act(r, "JK JK")) == "JK JK"


def test_nothing_beats_an_all_joker_group():
    r = start(["JK JK D5", "D2 C2 C5", "S9"], jokers=2)
    r = act(r, "JK JK")
    assert legal(r) == ["pass"]
    assert refusal(r, "D2 C2") == "not_stronger"


def test_an_all_joker_pair_beats_a_pair_of_2s_with_a_joker():
    r = start(["S2 JK D5", "JK D2 C5", "S9"], jokers=2)
    r = act(r, "S2 JK")
    assert refusal(r, "D2 JK") == "not_stronger"
    assert legal(r) == ["pass"]
    r = start(["D2 C2 D5", "JK JK C5", "S9"], jokers=2)
    r = act(r, "D2 C2")
    assert legal(r) == sorted(["pass", "JK JK"])


def test_the_revolution_reverses_ranks_for_singles_and_groups():
    r = after_lead("S7", "H6 H8 D3 D2 JK", in_revolution=True)
    assert refusal(r, "H8") == "not_stronger"
    assert refusal(r, "D2") == "not_stronger"
    assert legal(r) == sorted(["pass", "H6", "D3", "JK"])


def test_in_a_revolution_3_is_strongest_and_2_weakest():
    r = after_lead("S2", "H3 H5", in_revolution=True)
    assert legal(r) == sorted(["pass", "H3", "H5"])
    r = after_lead("S3", "H4 D2", in_revolution=True)
    assert legal(r) == ["pass"]


# -- the lone joker --------------------------------------------------------------------------


@pytest.mark.parametrize("revolution", [False, True])
def test_a_lone_joker_beats_every_single(revolution):
    strongest = "H3" if revolution else "H2"
    r = after_lead(strongest, "JK", in_revolution=revolution)
    assert "JK" in legal(r)
    assert field(act(r, "JK")) == "JK"


def test_a_lone_joker_never_beats_a_lone_joker():
    r = start(["JK D4", "JK H2", SPARE], jokers=2)
    r = act(r, "JK")
    assert refusal(r, "JK") == "not_stronger"
    assert refusal(r, "H2") == "not_stronger"
    assert legal(r) == ["pass"]


def test_a_joker_with_another_card_is_a_pair_not_a_single():
    r = after_lead("S7", "JK H8")
    assert refusal(r, "JK H8") == "wrong_form"


# -- sequences: sequence_beats ------------------------------------------------------------------


@pytest.mark.parametrize(
    "beats, revolution, lead, answer, ok",
    [
        # above_top: the new weakest card beats the field's strongest
        ("above_top", False, "S5 S6 S7", "H8 H9 HT", True),
        ("above_top", False, "S5 S6 S7", "H7 H8 H9", False),
        ("above_top", False, "S5 S6 S7", "H6 H7 H8", False),
        # above_bottom: the new weakest beats the field's weakest
        ("above_bottom", False, "S5 S6 S7", "H6 H7 H8", True),
        ("above_bottom", False, "S5 S6 S7", "H5 H6 H7", False),
        ("above_bottom", False, "S5 S6 S7", "H4 H5 H6", False),
        # reversed: weak and strong swap ends
        ("above_top", True, "S7 S8 S9", "H4 H5 H6", True),
        ("above_top", True, "S7 S8 S9", "H5 H6 H7", False),
        ("above_top", True, "S7 S8 S9", "H6 H7 H8", False),
        ("above_bottom", True, "S7 S8 S9", "H6 H7 H8", True),
        ("above_bottom", True, "S7 S8 S9", "H7 H8 H9", False),
        ("above_bottom", True, "S7 S8 S9", "HT HJ HQ", False),
    ],
)
def test_sequence_beats(beats, revolution, lead, answer, ok):
    r = after_lead(lead, answer, sequence_beats=beats, in_revolution=revolution)
    if ok:
        assert answer in legal(r)
        assert field(act(r, answer)) == answer
    else:
        assert answer not in legal(r)
        assert refusal(r, answer) == "not_stronger"


def test_a_following_sequence_reads_its_joker_by_the_current_order():
    # Reversed, H5 H6 JK reads 4 5 6, which is below 7 8 9.
    r = after_lead("S7 S8 S9", "H5 H6 JK", in_revolution=True)
    assert "H5 H6 JK" in legal(r)
    assert field(act(r, "H5 H6 JK")) == "H5 H6 JK"
    # Normally it reads 5 6 7, which does not beat 3 4 5 ... 5 is not above 5.
    r = after_lead("S3 S4 S5", "H5 H6 JK")
    assert refusal(r, "H5 H6 JK") == "not_stronger"
    r = after_lead("S3 S4 S5", "H6 H7 JK")
    assert field(act(r, "H6 H7 JK")) == "H6 H7 JK"


def test_sequences_against_a_joker_read_field():
    # SA S2 JK reads K A 2: nothing beats it above_top.
    r = after_lead("SA S2 JK", "H3 H4 H5 DK DA D2")
    assert legal(r) == ["pass"]


def test_legal_sequence_answers_are_exact():
    # Above 5 6 7 (above_top): the new weakest card must be 8 or more.
    r = after_lead("S5 S6 S7", "H8 H9 HT HJ D9 DT DJ JK")
    assert legal(r) == sorted(
        [
            "pass",
            "H8 H9 HT",
            "H9 HT HJ",
            "H8 H9 JK",  # 8 9 T
            "H8 HT JK",  # 8 9 T
            "H9 HT JK",  # 9 T J
            "H9 HJ JK",  # 9 T J
            "HT HJ JK",  # T J Q
            "D9 DT DJ",
            "D9 DT JK",
            "D9 DJ JK",
            "DT DJ JK",
        ]
    )


# -- the current order: revolution XOR 11-back ------------------------------------------------


@pytest.mark.parametrize(
    "revolution, jack_played, reversed_after",
    [(False, False, False), (True, False, True), (False, True, True), (True, True, False)],
)
def test_current_order_is_revolution_xor_jback(revolution, jack_played, reversed_after):
    lead = "SJ" if jack_played else "S9"
    r = start([lead + " D4", "HT HQ", SPARE], jback="groups", in_revolution=revolution)
    r = act(r, lead)
    assert r.revolution is revolution
    assert r.jback is jack_played
    assert r.reversed is reversed_after
    if jack_played:
        # T is below J, Q above it: only the order decides which one follows
        assert legal(r) == sorted(["pass", "HT" if reversed_after else "HQ"])
    else:
        # T and Q are both above 9
        assert legal(r) == (["pass"] if reversed_after else sorted(["pass", "HT", "HQ"]))
