"""Properties over random seeded games: every preset, 2..6 players, random option combinations.

Each example draws a rule set (a preset with random overrides), a table size and a
seed; the game itself is played with ``random.Random(seed)`` so a failing example is
reproducible from what hypothesis prints.
"""

import json
import random
from itertools import combinations

from engine_testlib import (
    ALL_PRESETS,
    check_observation,
    property_settings,
    random_choice,
    random_match,
    same_match,
    snapshot,
)
from hypothesis import example, given
from hypothesis import strategies as st

from rules_engine import REASONS, Action, Match, Refusal, Round, RuleSet
from rules_engine.cards import JOKER_UNIT, REAL_MASK, count, format_cards, full_deck
from rules_engine.rules import FORBIDDEN_FINISH_ENTRIES
from rules_engine.state import NAME_CHOICE, rank_text

OPTIONS = {
    "jokers": st.sampled_from([0, 1, 2]),
    "sequence_min": st.sampled_from([3, 4, 5]),
    "sequence_beats": st.sampled_from(["above_top", "above_bottom"]),
    "revolution": st.booleans(),
    "revolution_group_min": st.sampled_from([3, 4, 5]),
    "revolution_sequence_min": st.sampled_from([None, 4, 5]),
    "eight_cut": st.sampled_from(["off", "groups", "any"]),
    "jback": st.sampled_from(["off", "groups", "any"]),
    "suit_lock": st.booleans(),
    "suit_lock_after": st.sampled_from([2, 3]),
    "number_lock": st.booleans(),
    "spade3_return": st.booleans(),
    "forbidden_finish": st.lists(st.sampled_from(FORBIDDEN_FINISH_ENTRIES), unique=True),
    "forbidden_finish_sequences_exempt": st.booleans(),
    "miyako_ochi": st.booleans(),
    "pass_until_clear": st.booleans(),
    "return_to_last": st.booleans(),
    "joker_suit": st.booleans(),
    "eight_cut_joker": st.booleans(),
    "leader_may_pass": st.booleans(),
    "diamond3_leads": st.booleans(),
    "joker_beyond_ends": st.booleans(),
    # 3+: with 1 or 2 cards the last place can give its whole hand away, see
    # test_exchange.py::test_a_seat_emptied_by_its_gift_plays_on_with_the_cards_returned
    "hand_size": st.one_of(st.none(), st.integers(3, 26)),
    # House rules (RULES.md section 8).
    "seven_pass": st.sampled_from(["off", "groups", "any"]),
    "ten_discard": st.sampled_from(["off", "groups", "any"]),
    "twelve_bomber": st.sampled_from(["off", "groups", "any"]),
    "five_skip": st.sampled_from(["off", "groups", "any"]),
    "nine_reverse": st.sampled_from(["off", "groups", "any"]),
    "sandstorm": st.booleans(),
}


@st.composite
def rule_sets(draw):
    preset = draw(st.sampled_from(ALL_PRESETS))
    names = draw(st.sets(st.sampled_from(sorted(OPTIONS))))
    return RuleSet.preset(preset, **{name: draw(OPTIONS[name]) for name in sorted(names)})


GAMES = st.tuples(rule_sets(), st.integers(2, 6), st.integers(0, 2**32 - 1))


def play_match(game, rounds=None):
    rules, players, seed = game
    if rounds is None:
        rounds = 3 if players > 2 else 1
    return random_match(rules, players, rounds, seed, random.Random(seed))


def by_round(states):
    """The match states grouped by round."""
    groups = [[states[0]]]
    for m in states[1:]:
        if m.round_no != groups[-1][-1].round_no:
            groups.append([])
        groups[-1].append(m)
    return groups


def units(cards):
    return [1 << i for i in range(52) if cards >> i & 1] + [JOKER_UNIT] * (cards >> 52)


# -- cards are conserved ---------------------------------------------------------------------------


#: Found by hypothesis (issue 43's CI work): a 12ボンバー named by the former daifugo empties
#: another hand, that player finishes first, and miyako-ochi puts the bomber itself out.
BOMBER_PUTS_ITSELF_OUT = (
    RuleSet.preset(
        "classic",
        jokers=1,
        sequence_min=3,
        sequence_beats="above_top",
        revolution=True,
        revolution_group_min=4,
        revolution_sequence_min=4,
        eight_cut="groups",
        jback="groups",
        suit_lock=True,
        suit_lock_after=3,
        number_lock=False,
        spade3_return=True,
        forbidden_finish=(),
        forbidden_finish_sequences_exempt=False,
        miyako_ochi=True,
        pass_until_clear=False,
        hand_size=None,
        return_to_last=False,
        joker_suit=False,
        eight_cut_joker=False,
        leader_may_pass=False,
        diamond3_leads=False,
        joker_beyond_ends=False,
        seven_pass="groups",
        ten_discard="off",
        twelve_bomber="groups",
        five_skip="groups",
        nine_reverse="off",
        sandstorm=False,
    ),
    4,
    5402,
)


@property_settings(40)
@given(GAMES)
@example(BOMBER_PUTS_ITSELF_OUT)
def test_cards_are_conserved(game):
    states = play_match(game)
    deck = full_deck(game[0].jokers)
    for rnd in by_round(states):
        discarded = 0
        for i, m in enumerate(rnd):
            r = m.round
            if i:
                before = rnd[i - 1].round
                actor = m.log[-1].seat
                # a 7渡し gift made by this action, and its receiver
                gift = r.choices[-1] if len(r.choices) > len(before.choices) else None
                on_table = 0
                for _, mv in r.actions():
                    on_table |= mv.cards
                for s in range(r.n):
                    if s in r.penalised and s not in before.penalised:
                        # miyako-ochi: a hand discarded face down (what a bomber left,
                        # with the gift it just got). The actor too: its own 12ボンバー can
                        # empty another hand, whose finish puts the former daifugo, the
                        # actor, out (what it played is on the table, not discarded).
                        lost = before.hands[s] & ~r.hands[s] & ~(r.discarded & REAL_MASK)
                        discarded += lost & ~on_table if s == actor else lost
                        if gift is not None and gift[0] == 0 and gift[2] == s:
                            discarded += gift[3]
                    elif before.hands[s] and not r.hands[s] and s != actor:
                        # emptied by a bomber (12ボンバー): discarded face up
                        assert before.hands[s] & ~r.discarded == 0
            parts = [*r.hands, r.facedown, discarded, r.discarded]
            parts += [mv.cards for _, mv in r.actions()]
            seen_real = 0
            for part in parts:
                assert part & REAL_MASK & seen_real == 0, "a card is in two places"
                seen_real |= part & REAL_MASK
            assert seen_real == deck & REAL_MASK
            assert sum(p >> 52 for p in parts) == game[0].jokers


# -- a round always ends ---------------------------------------------------------------------------


@property_settings(40)
@given(GAMES, st.floats(0.0, 0.95))
def test_a_round_always_ends_within_a_bound(game, pass_rate):
    """Even when players pass as often as they may: between two plays there are
    fewer passes than players, so a round takes at most ``cards * players`` actions.
    (Under ``leader_may_pass`` a table could pass round an empty field for ever, as in
    UECda, whose server ends such a game after 20 passes in a row; here a leader plays.)"""
    rules, players, seed = game
    rng = random.Random(seed)
    r = Round.deal(rules, players, seed)
    dealt = sum(r.counts())
    bound = dealt * players
    actions = 0
    while not r.over:
        if r.pending is not None:
            # a house-rule choice: not a play or a pass, and it never adds cards
            r = random_choice(r, rng)
            assert not isinstance(r, Refusal)
            continue
        moves = r.legal_moves()
        assert moves, "the player to act has no legal move"
        plays = [m for m in moves if not m.is_pass]
        leading = r.top is None
        if len(plays) < len(moves) and (not plays or (not leading and rng.random() < pass_rate)):
            move = moves[0]
            assert move.is_pass
        else:
            move = rng.choice(plays)
        r = r.apply(move)
        assert not isinstance(r, Refusal)
        actions += 1
        assert actions <= bound
    assert sorted(r.result) == list(range(players))


# -- every listed move applies, listed once --------------------------------------------------------


@property_settings(40)
@given(GAMES)
def test_every_listed_legal_move_applies_and_is_listed_once(game):
    for m in play_match(game, rounds=1):
        r = m.round
        moves = r.legal_moves()
        strings = [str(mv) for mv in moves]
        assert len(set(moves)) == len(moves)
        assert len(set(strings)) == len(strings)
        if r.phase_name != "play":
            assert moves == []
            continue
        if r.pending is not None:
            check_choices(r)
            continue
        assert moves
        assert ("pass" in strings) is (r.top is not None or r.rules.leader_may_pass)
        for mv, text in zip(moves, strings, strict=True):
            out = r.apply(mv)
            assert not isinstance(out, Refusal), (text, out)
            cards, _, form = text.partition("/")
            again = r.apply(cards, form=form or None)
            assert again == out, text
            assert again.actions()[-1] == (r.to_act, mv)


def check_choices(r):
    """While a choice is owed no move is legal, every listed choice applies, each once,
    and a choice of another size, by another seat or of the other kind is refused."""
    assert r.legal_moves() == []
    owed = r.owed_choice()
    seat, kind, k, _ = owed
    choices = r.legal_choices()
    assert len(set(choices)) == len(choices) and choices
    name = kind == NAME_CHOICE
    before = snapshot(r)
    for choice in choices[:40]:
        out = r.name(seat, choice) if name else r.choose(seat, choice)
        assert not isinstance(out, Refusal), (format_cards(choice), out)
        again = r.name(None, rank_text(choice)) if name else r.choose(None, format_cards(choice))
        assert again == out
        other = (seat + 1) % r.n
        wrong = r.name(other, choice) if name else r.choose(other, choice)
        assert wrong.reason == "not_your_turn"
        kind_wrong = r.choose(seat, 0) if name else r.name(seat, choice & 0x1FFF)
        assert kind_wrong.reason == "no_choice_owed"
    if not name:
        hand_units = units(r.hands[seat])
        for size in range(len(hand_units) + 1):
            if size != k:
                assert r.choose(seat, sum(hand_units[:size])).reason == "wrong_count"
    assert r.apply("pass").reason == "choice_owed"
    assert snapshot(r) == before


# -- everything else is refused, and a refusal changes nothing -------------------------------------


def expected_outcome(legal, cards, form):
    """The legal move that playing ``cards`` with ``form`` (or none) means, or None."""
    for mv in legal:
        if mv.cards == cards and not mv.is_pass:
            if form is None and not mv.ambiguous:
                return mv
            if form is not None and mv.form_name == form:
                return mv
    return None


def check_attempt(r, legal, cards, form):
    before = snapshot(r)
    out = r.apply(format_cards(cards), form=form) if cards else r.apply("pass")
    assert snapshot(r) == before
    if not cards:
        should = any(mv.is_pass for mv in legal)
        assert isinstance(out, Refusal) is not should
        return
    mv = expected_outcome(legal, cards, form)
    if mv is None:
        assert isinstance(out, Refusal), f"{format_cards(cards)}/{form} accepted, not listed"
        assert out.reason in REASONS
    else:
        assert not isinstance(out, Refusal), f"{mv} listed but refused: {out.reason}"
        assert out == r.apply(mv)


FORM_CHOICES = [None, "single", "group", "sequence"]


@property_settings(40)
@given(GAMES)
def test_a_card_set_not_in_the_legal_list_is_refused_and_changes_nothing(game):
    rng = random.Random(game[2] + 1)
    for m in play_match(game, rounds=1):
        r = m.round
        if r.phase_name != "play":
            continue
        legal = r.legal_moves()
        hand = r.hands[r.to_act]
        hand_units = units(hand)
        check_attempt(r, legal, 0, None)  # a pass
        for _ in range(12):
            k = rng.randint(1, min(6, len(hand_units)))
            cards = sum(rng.sample(hand_units, k))
            check_attempt(r, legal, cards, rng.choice(FORM_CHOICES))
        # cards from anywhere in the deck: mostly not held
        deck_units = units(full_deck(r.rules.jokers))
        for _ in range(3):
            cards = sum(rng.sample(deck_units, rng.randint(1, 4)))
            out = r.apply(format_cards(cards))
            if cards & ~hand & REAL_MASK or (cards >> 52) > (hand >> 52):
                # (while a house-rule choice is owed, any play is choice_owed first)
                want = "choice_owed" if r.pending is not None else "not_in_hand"
                assert isinstance(out, Refusal) and out.reason == want


@property_settings(25)
@given(GAMES)
def test_the_legal_list_is_exactly_what_apply_accepts_for_small_hands(game):
    """Every subset of a hand of up to 7 cards, with every form: accepted if and only if listed."""
    checked = 0
    for m in play_match(game, rounds=1):
        r = m.round
        if r.phase_name != "play" or count(r.hands[r.to_act]) > 7:
            continue
        legal = r.legal_moves()
        hand_units = units(r.hands[r.to_act])
        subsets = {
            sum(c) for k in range(1, len(hand_units) + 1) for c in combinations(hand_units, k)
        }
        for cards in subsets:
            for form in FORM_CHOICES:
                check_attempt(r, legal, cards, form)
        checked += 1
        if checked >= 6:
            break
    assert checked  # whoever goes out held few cards at some point


@property_settings(30)
@given(GAMES)
def test_a_refusal_leaves_the_state_unchanged(game):
    rng = random.Random(game[2])
    for m in play_match(game)[::3]:
        r = m.round
        before = snapshot(r)
        attempts = []
        for seat in range(r.n):
            if seat != r.to_act:
                attempts.append(lambda r, s=seat: r.apply("pass", seat=s))
                if r.hands[seat]:
                    card = format_cards(rng.choice(units(r.hands[seat])))
                    attempts.append(lambda r, s=seat, c=card: r.apply(c, seat=s))
            if r.hands[seat]:
                one = rng.choice(units(r.hands[seat]))
                attempts.append(lambda r, s=seat, c=one: r.give(s, c))
        if r.phase_name == "play" and r.top is None:
            attempts.append(lambda r: r.apply("pass"))
        for attempt in attempts:
            out = attempt(r)
            if isinstance(out, Refusal):
                assert out.reason in REASONS
            assert snapshot(r) == before
        # the match refuses the same way and keeps its log
        log = m.log
        if not m.round.over:
            assert m.apply(Action.next_round()).reason == "wrong_phase"
        assert m.apply(Action.pass_(99)).reason in ("not_your_turn", "round_over")
        assert m.log == log


# -- replay ----------------------------------------------------------------------------------------


@property_settings(30)
@given(GAMES, st.floats(0, 1))
def test_replaying_the_action_log_gives_an_equal_state(game, where):
    states = play_match(game)
    for m in (states[int(where * (len(states) - 1))], states[-1]):
        record = json.loads(json.dumps(m.to_record()))
        again = Match.from_record(record)
        assert same_match(again, m)
        assert again.scores == m.scores
        assert again.to_record() == record


# -- observations ----------------------------------------------------------------------------------


@property_settings(30)
@given(GAMES)
def test_observations_never_contain_another_seats_cards(game):
    for i, m in enumerate(play_match(game)):
        for seat in range(m.players):
            check_observation(m.round, seat, as_json=i % 5 == 0)
