"""Going out, illegal finishes, penalties, miyako-ochi and titles (RULES.md section 5)."""

import pytest
from engine_testlib import act, field, play, start

from rules_engine import titles_for
from rules_engine.cards import parse_cards


def go_out(hand, preset="basic", *, in_revolution=False, **kw):
    """Seat 0 leads its whole ``hand`` and goes out; the round after that play."""
    r = start([hand, "HK DK CK", "C4 C5 D6"], preset, leader=0, in_revolution=in_revolution, **kw)
    return act(r, hand)


def penalised(r):
    return 0 in r.penalised


@pytest.mark.parametrize(
    "entry, hand, kw, illegal",
    [
        ("joker", "S5 JK", {}, True),
        ("joker", "JK", {}, True),
        ("joker", "S5 S6 JK", {}, True),
        ("joker", "S5 H5", {}, False),
        ("lone_joker", "JK", {}, True),
        ("lone_joker", "JK JK", {"jokers": 2}, True),
        ("lone_joker", "S5 JK", {}, False),
        ("top_rank", "S2", {}, True),
        ("top_rank", "S2 H2", {}, True),
        ("top_rank", "SK SA S2", {}, True),
        ("top_rank", "SA", {}, False),
        ("top_rank", "S3", {}, False),
        ("top_rank", "S3", {"in_revolution": True}, True),
        ("top_rank", "S2", {"in_revolution": True}, False),
        ("top_rank", "S3 S4 S5", {"in_revolution": True}, True),
        # judged before the play's own effects: four 2s start a revolution
        ("top_rank", "S2 H2 D2 C2", {}, True),
        ("top_rank", "S3 H3 D3 C3", {}, False),
        ("eight", "S8", {"eight_cut": "groups"}, True),
        ("eight", "S7 S8 S9", {"eight_cut": "groups"}, True),
        ("eight", "S8", {"eight_cut": "off"}, False),
        ("eight", "S7 JK S9", {"eight_cut": "any"}, False),
        ("eight_cut", "S8", {"eight_cut": "groups"}, True),
        ("eight_cut", "S8 JK", {"eight_cut": "groups"}, True),
        ("eight_cut", "S7 S8 S9", {"eight_cut": "groups"}, False),
        ("eight_cut", "S7 S8 S9", {"eight_cut": "any"}, True),
        ("eight_cut", "S8", {"eight_cut": "off"}, False),
        ("revolution", "S9 H9 D9 C9", {}, True),
        ("revolution", "S9 H9 D9", {}, False),
        ("revolution", "S4 S5 S6 S7", {"revolution_sequence_min": 4}, True),
        ("revolution", "S9 H9 D9 C9", {"revolution": False}, False),
    ],
)
def test_illegal_finish_entries(entry, hand, kw, illegal):
    kw = dict(kw)
    in_revolution = kw.pop("in_revolution", False)
    r = go_out(hand, forbidden_finish=[entry], in_revolution=in_revolution, **kw)
    assert r.out == (0,)
    assert penalised(r) is illegal
    # without the entry, the same play is a clean finish
    r = go_out(hand, forbidden_finish=[], in_revolution=in_revolution, **kw)
    assert r.out == (0,) and not penalised(r)


def test_spade3_return_finish():
    r = start(
        ["S3", "JK HK", "C4 C5"],
        "basic",
        leader=1,
        spade3_return=True,
        forbidden_finish=["spade3_return"],
    )
    r = play(r, "JK", "pass", "S3")
    assert r.out == (0,)
    assert r.penalised == (0,)
    # a plain S3 is no return
    r = start(
        ["S3", "H2 HK", "C4 C5"],
        "basic",
        leader=0,
        spade3_return=True,
        forbidden_finish=["spade3_return"],
    )
    r = play(r, "S3")
    assert r.out == (0,) and r.penalised == ()


def test_11_back_does_not_change_which_rank_is_top():
    # 11-back on, no revolution: reversed order, but the forbidden rank is still 2
    r = start(
        ["H3", "SJ HK", "C4 C5"], "basic", leader=1, jback="groups", forbidden_finish=["top_rank"]
    )
    r = play(r, "SJ", "pass", "H3")
    assert r.out == (0,) and r.penalised == ()
    # 11-back in a revolution: normal order, the forbidden rank is still 3
    r = start(
        ["H2", "SJ HK", "C4 C5"],
        "basic",
        leader=1,
        jback="groups",
        forbidden_finish=["top_rank"],
        in_revolution=True,
    )
    r = play(r, "SJ", "pass", "H2")
    assert r.out == (0,) and r.penalised == ()


@pytest.mark.parametrize("exempt, illegal", [(True, False), (False, True)])
def test_sequences_exempt(exempt, illegal):
    r = go_out(
        "SQ SK SA S2",
        forbidden_finish=["top_rank", "joker"],
        forbidden_finish_sequences_exempt=exempt,
    )
    assert penalised(r) is illegal
    r = go_out("SA S2 JK", forbidden_finish=["joker"], forbidden_finish_sequences_exempt=exempt)
    assert penalised(r) is illegal
    # groups are never exempt
    r = go_out("S2 H2", forbidden_finish=["top_rank"], forbidden_finish_sequences_exempt=exempt)
    assert penalised(r)


def test_standard_forbids_joker_2_8_cut_and_spade_3_return():
    assert penalised(go_out("JK", "standard"))
    assert penalised(go_out("S2", "standard"))
    assert penalised(go_out("S8", "standard"))
    assert not penalised(go_out("S9 ST SJ", "standard"))
    assert not penalised(go_out("S6 S7 S8", "standard"))  # no cut, no joker


def test_classic_forbids_lone_joker_top_rank_and_eight_but_not_in_sequences():
    assert penalised(go_out("JK", "classic"))
    assert not penalised(go_out("S5 JK", "classic"))
    assert penalised(go_out("S8", "classic"))
    assert not penalised(go_out("S6 S7 S8", "classic"))
    assert not penalised(go_out("SK SA S2", "classic"))


def test_penalised_players_fill_the_bottom_first_penalised_last():
    r = start(["S2", "H2 H3", "C5 C6", "D7 D8"], "basic", forbidden_finish=["top_rank"])
    r = play(r, "S2")  # seat 0 out, penalised
    assert r.penalised == (0,)
    r = play(r, "pass", "pass", "pass")  # seat 1 leads next
    assert r.to_act == 1
    r = play(r, "H3", "C5", "D7", "H2")  # seat 1 out on a 2, penalised
    assert r.penalised == (0, 1)
    r = play(r, "pass", "pass")
    r = play(r, "C6")  # seat 2 leads and goes out clean
    assert r.over
    assert r.result == (2, 3, 1, 0)
    assert r.titles() == ("daihinmin", "hinmin", "daifugo", "fugo")


def test_a_penalised_player_still_goes_out():
    r = go_out("JK", "standard")
    assert r.hands[0] == 0
    assert r.out == (0,)
    assert not r.over


# -- miyako-ochi ----------------------------------------------------------------------


def after_exchange(preset, **kw):
    """Four players, previous round 0 1 2 3 (seat 0 was daifugo, seat 3 daihinmin).

    Dealt: seat 3 gives CA CK to seat 0, seat 2 gives DT to seat 1; seat 0
    returns S4 S5 and seat 1 returns H4. Afterwards:
    seat 0 ``S6 CK CA``, seat 1 ``H6 DT``, seat 2 ``H4 D9``, seat 3 ``C3 S4 S5 C7``.
    """
    r = start(
        ["S4 S5 S6", "H4 H6", "D9 DT", "C3 C7 CK CA"],
        preset,
        leader=None,
        previous=[0, 1, 2, 3],
        **kw,
    )
    r = r.give(0, "S4 S5").give(1, "H4")
    assert r.phase_name == "play"
    assert r.to_act == 3
    return r


def test_miyako_ochi_drops_the_previous_top_at_once():
    r = after_exchange("standard")
    r = play(r, "C3", "pass", "pass", "H4", "pass", "pass", "pass")
    assert field(r) is None and r.to_act == 2
    r = play(r, "D9")  # seat 2 goes out first, cleanly
    assert r.out == (2, 0)
    assert r.penalised == (0,)
    assert r.hands[0] == 0
    assert r.counts()[0] == 0
    assert r.to_act == 3  # seat 0 is skipped from now on
    r = play(r, "pass", "pass")
    assert field(r) is None and r.to_act == 3
    r = play(r, "S4", "H6", "pass", "DT")
    assert r.over
    assert r.result == (2, 1, 3, 0)


def test_without_miyako_ochi_the_previous_top_plays_on():
    r = after_exchange("standard", miyako_ochi=False)
    r = play(r, "C3", "pass", "pass", "H4", "pass", "pass", "pass", "D9")
    assert r.out == (2,)
    assert r.penalised == ()
    assert r.counts()[0] == 3


def test_no_miyako_ochi_when_the_previous_top_goes_out_first():
    r = after_exchange("standard", forbidden_finish=[])
    r = play(r, "C3", "S6", "DT", "pass", "pass", "CK", "pass", "pass", "pass")
    r = play(r, "CA")  # seat 0 leads its last card
    assert r.out == (0,)
    assert r.penalised == ()


def test_a_penalised_finish_does_not_trigger_miyako_ochi():
    r = start(
        ["S4 S5 S6", "H4 H6", "D2 D9", "C3 C7 CK CA"],
        "standard",
        leader=None,
        previous=[0, 1, 2, 3],
    )
    # seat 2 gives D2 to seat 1, which hands it straight back
    r = r.give(0, "S4 S5").give(1, "D2")
    assert r.hands[2] == parse_cards("D2 D9")
    r = play(r, "C3", "pass", "pass", "D9", "pass", "pass", "pass")
    r = play(r, "D2")  # seat 2 goes out first, on a 2: penalised
    assert r.out == (2,)
    assert r.penalised == (2,)
    assert r.counts()[0] == 3  # the previous daifugo plays on
    r = play(r, "pass", "pass", "pass")
    assert field(r) is None and r.to_act == 3
    r = play(r, "S4", "pass", "H6", "pass", "pass")
    r = play(r, "H4")  # seat 1: the first clean finish
    assert r.out == (2, 1, 0)
    assert r.penalised == (2, 0)
    assert r.over
    assert r.result == (1, 3, 0, 2)


def test_three_players_miyako_ochi_ends_the_round():
    r = start(["S4 S5", "H6", "D9 DT"], "standard", leader=None, previous=[0, 1, 2])
    assert r.owed == (1, 0, 0)  # seat 2 gave DT to seat 0
    r = r.give(0, "S4")
    assert r.to_act == 2
    r = play(r, "S4", "pass", "H6")
    # seat 1 went out first; seat 0 (the previous fugo) drops; only seat 2 holds cards
    assert r.over
    assert r.result == (1, 2, 0)
    assert r.penalised == (0,)
    assert r.titles() == ("hinmin", "fugo", "heimin")


# -- titles ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, titles",
    [
        (2, ("winner", "loser")),
        (3, ("fugo", "heimin", "hinmin")),
        (4, ("daifugo", "fugo", "hinmin", "daihinmin")),
        (5, ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")),
        (6, ("daifugo", "fugo", "heimin", "heimin", "hinmin", "daihinmin")),
    ],
)
def test_titles_by_table_size(players, titles):
    order = list(range(players))[::-1]  # the last seat came first
    got = titles_for(order)
    assert tuple(got[seat] for seat in order) == titles
    assert len(got) == players


def test_a_played_round_has_titles():
    r = start(["S5", "H7 H9", "C8 CT", "D2 DA"], "basic")
    r = play(r, "S5", "H7", "C8", "D2")
    assert r.out == (0,)
    r = play(r, "pass", "pass", "DA")
    assert r.out == (0, 3)
    r = play(r, "pass", "pass")
    assert r.to_act == 1
    r = play(r, "H9")
    assert r.over
    assert r.result == (0, 3, 1, 2)
    assert r.titles() == ("daifugo", "hinmin", "daihinmin", "fugo")
