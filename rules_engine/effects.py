"""What an action did, as values: the one place where a play's effects are judged.

:meth:`Round.apply <rules_engine.state.Round.apply>`, :meth:`Round.give
<rules_engine.state.Round.give>` and :meth:`Round.start
<rules_engine.state.Round.start>` record what happened on the new round, read back as
``Round.effects``: a tuple of :class:`Effect` in reading order. The predicates below
(:func:`cuts`, :func:`returns_spade3`, :func:`toggles_revolution`, :func:`toggles_jback`,
:func:`forbidden_finish_entry`) are what the engine itself uses to judge a play, and the
computer players ask the same functions before they play, so a rule effect is written once.

>>> from rules_engine import RuleSet, Round
>>> r = Round.start(RuleSet.preset("standard"), ["S8 H4", "HK", "D6"], leader=0)
>>> [e.kind for e in r.apply("S8").effects]
['played', 'eight_cut', 'cleared']
>>> r.apply("S8").effects[-1].reason
'eight_cut'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from .cards import (
    JOKER_RANK,
    RANK_2,
    RANK_3,
    RANK_8,
    RANK_J,
    RANK_MASKS,
    REAL_MASK,
    SPADE_3,
    format_cards,
)
from .moves import GROUP, PASS_FORM, SEQUENCE, SINGLE, Move
from .rules import FORBIDDEN_FINISH_ENTRIES, RuleSet

# -- effect kinds ---------------------------------------------------------------------------

PLAYED = "played"  #: seat, move
PASSED = "passed"  #: seat
EIGHT_CUT = "eight_cut"  #: seat: the play is an 8-cut
SPADE3_RETURN = "spade3_return"  #: seat: the spade 3 returned a lone joker
REVOLUTION = "revolution"  #: on: revolution is now in force (True) or ended (False)
JBACK = "jback"  #: on; reason "played" (a J toggled it) or "cleared" (it ended with the field)
SUIT_LOCK = "suit_lock"  #: suits: the locked suits as a bit set (bit 0 spades ... bit 3 clubs)
NUMBER_LOCK = "number_lock"  #: the number lock started
CLEARED = "cleared"  #: reason (see CLEAR_REASONS), seat: who leads now
WENT_OUT = "went_out"  #: seat, place (1 = first)
PENALISED = "penalised"  #: seat, reason: the forbidden_finish entry, place
MIYAKO_OCHI = "miyako_ochi"  #: seat: last round's first, dropped out; place
#: seat gives to ``to``: cards (hidden from others), size (how many); on: forced by the deal
GIFT = "gift"
EXCHANGE_OVER = "exchange_over"  #: seat: who leads the first trick
ROUND_OVER = "round_over"  #: the round is over (``Round.result`` holds the order)
# House rules (RULES.md section 8).
#: seat owes a choice: reason "give" (to: the receiver), "discard" or "name"; size: how many
OWES = "owes"
GAVE = "gave"  #: seat gave ``to`` (7渡し): cards (only those two seats see them), size
DISCARDED = "discarded"  #: seat discarded cards face up (10捨て, or a 12ボンバー's ranks), size
NAMED = "named"  #: seat named ranks (12ボンバー): ranks as a bit set (bit 0 the 3 ... bit 12 the 2)
SKIPPED = "skipped"  #: seat's turn was skipped (5スキップ)
REVERSED = "reversed"  #: seat reversed the direction (9リバース); on: now against seat order
SANDSTORM = "sandstorm"  #: seat played a sandstorm (砂嵐)

KINDS = (
    PLAYED,
    PASSED,
    EIGHT_CUT,
    SPADE3_RETURN,
    REVOLUTION,
    JBACK,
    SUIT_LOCK,
    NUMBER_LOCK,
    CLEARED,
    WENT_OUT,
    PENALISED,
    MIYAKO_OCHI,
    GIFT,
    EXCHANGE_OVER,
    ROUND_OVER,
    OWES,
    GAVE,
    DISCARDED,
    NAMED,
    SKIPPED,
    REVERSED,
    SANDSTORM,
)

#: Why a field was cleared.
CLEAR_REASONS = ("eight_cut", "spade3", "all_passed", "nobody_left_to_answer", "sandstorm")


class Effect(NamedTuple):
    """One thing an action did. Unused fields keep their defaults.

    >>> e = Effect(WENT_OUT, seat=2, place=1)
    >>> e.kind, e.seat, e.place, e.move
    ('went_out', 2, 1, None)
    """

    kind: str
    seat: int = -1
    move: Move | None = None
    to: int = -1
    cards: int = 0
    size: int = 0
    suits: int = 0
    place: int = 0
    reason: str = ""
    on: bool = False
    ranks: int = 0


def visible_to(effects: Iterable[Effect], seat: int | None) -> tuple[Effect, ...]:
    """The effects as ``seat`` may see them (``None``: a viewer with no seat).

    Everything is public except the cards of an exchange gift or of a 7渡し gift, which
    only the giver and the receiver see; the others learn how many cards changed hands.

    >>> gift = Effect(GIFT, seat=0, to=3, cards=6, size=2, on=True)
    >>> receiver, other = visible_to([gift], 3)[0], visible_to([gift], 1)[0]
    >>> receiver.cards, other.cards, other.size
    (6, 0, 2)
    """
    shown = []
    for e in effects:
        if (e.kind == GIFT or e.kind == GAVE) and seat not in (e.seat, e.to):
            e = e._replace(cards=0)
        shown.append(e)
    return tuple(shown)


# -- what a play does (judged before it is made) ---------------------------------------------

_MASK_2: Final = RANK_MASKS[RANK_2]
_MASK_3: Final = RANK_MASKS[RANK_3]
_MASK_8: Final = RANK_MASKS[RANK_8]
_MASK_J: Final = RANK_MASKS[RANK_J]
_FF_BIT = {entry: 1 << i for i, entry in enumerate(FORBIDDEN_FINISH_ENTRIES)}
_FF_JOKER: Final = _FF_BIT["joker"]
_FF_LONE: Final = _FF_BIT["lone_joker"]
_FF_TOP: Final = _FF_BIT["top_rank"]
_FF_EIGHT: Final = _FF_BIT["eight"]
_FF_CUT: Final = _FF_BIT["eight_cut"]
_FF_S3: Final = _FF_BIT["spade3_return"]
_FF_REVO: Final = _FF_BIT["revolution"]


def _rank_rule(mode: str, move: Move, rank: int, mask: int) -> bool:
    # The 8-cut and 11-back options read a play the same way: "groups" means a single or
    # group of that rank, "any" any play with a real card of it (a joker never counts).
    if mode == "off" or move.form == PASS_FORM:
        return False
    if mode == "groups":
        return move.form != SEQUENCE and move.rank == rank
    return bool(move.cards & mask)


def house_count(mode: str, move: Move, rank: int) -> int:
    """How many a house rule of RULES.md section 8 counts in a play (0: it does not fire).

    ``groups``: a single or group of ``rank`` (jokers filling count), the play's size;
    ``any``: the real cards of ``rank`` in any play. A jokers-only play never counts.

    >>> from rules_engine.moves import analyse
    >>> from rules_engine.cards import parse_cards
    >>> pair = analyse(parse_cards("S7 H7 JK"), None, False, 3)
    >>> seq = analyse(parse_cards("S6 S7 S8"), None, False, 3)
    >>> house_count("groups", pair, 4), house_count("any", pair, 4), house_count("groups", seq, 4)
    (3, 2, 0)
    >>> house_count("any", seq, 4)
    1
    """
    if mode == "off" or move.form == PASS_FORM:
        return 0
    if mode == "groups":
        return move.size if move.form != SEQUENCE and move.rank == rank else 0
    return (move.cards & RANK_MASKS[rank]).bit_count()


def is_sandstorm(move: Move, rules: RuleSet) -> bool:
    """Whether a play is a sandstorm (砂嵐): exactly three real 3s, under ``sandstorm``.

    >>> from rules_engine.moves import analyse
    >>> from rules_engine.cards import parse_cards
    >>> three = analyse(parse_cards("S3 H3 D3"), None, False, 3)
    >>> is_sandstorm(three, RuleSet(sandstorm=True)), is_sandstorm(three, RuleSet())
    (True, False)
    """
    return (
        rules.sandstorm
        and move.form == GROUP
        and move.jokers == 0
        and move.size == 3
        and move.cards & _MASK_3 == move.cards
    )


def cuts(move: Move, rules: RuleSet) -> bool:
    """Whether a play makes an 8-cut (RULES.md section 3); a joker standing for an 8
    never cuts, except in a sequence under ``eight_cut_joker``.

    >>> from rules_engine.moves import analyse
    >>> from rules_engine.cards import parse_cards
    >>> seq = analyse(parse_cards("S7 S8 S9"), None, False, 3)
    >>> any_, groups = (RuleSet.preset("standard", eight_cut=v) for v in ("any", "groups"))
    >>> cuts(seq, any_), cuts(seq, groups)
    (True, False)
    """
    if rules.eight_cut_joker and move.form == SEQUENCE and rules.eight_cut == "any":
        # eight_cut_joker (UECda): a sequence whose span covers the 8 cuts, even when a
        # joker stands for it.
        return move.low <= RANK_8 <= move.high
    return _rank_rule(rules.eight_cut, move, RANK_8, _MASK_8)


def toggles_jback(move: Move, rules: RuleSet) -> bool:
    """Whether a play toggles 11-back (read like the 8-cut, with the J)."""
    return _rank_rule(rules.jback, move, RANK_J, _MASK_J)


def toggles_revolution(move: Move, rules: RuleSet) -> bool:
    """Whether a play toggles revolution."""
    if not rules.revolution:
        return False
    if move.form == GROUP:
        return move.size >= rules.revolution_group_min
    if move.form == SEQUENCE:
        smin = rules.revolution_sequence_min
        return smin is not None and move.size >= smin
    return False


def returns_spade3(move: Move, rules: RuleSet, top: Move | None) -> bool:
    """Whether a play is the spade-3 return: the lone spade 3 on a lone joker."""
    return (
        rules.spade3_return
        and move.cards == SPADE_3
        and top is not None
        and top.form == SINGLE
        and top.rank == JOKER_RANK
    )


def finish_entry(
    move: Move, rules: RuleSet, revolution: bool, cut: bool, spade3: bool, revo: bool
) -> str | None:
    """The first ``forbidden_finish`` entry a last play breaks, or ``None``, from the
    play's effects already judged (``revolution``: the state before the play)."""
    ff = rules.ff_mask
    if not ff:
        return None
    if rules.forbidden_finish_sequences_exempt and move.form == SEQUENCE:
        return None
    real = move.cards & REAL_MASK
    if ff & _FF_JOKER and move.jokers:
        return "joker"
    if ff & _FF_LONE and not real:
        return "lone_joker"
    # The top rank is 2, or 3 during a revolution (the state before this play; 11-back
    # does not change it): seeds 002 and 003 say "2 (3 during a revolution)".
    if ff & _FF_TOP and real & (_MASK_3 if revolution else _MASK_2):
        return "top_rank"
    if ff & _FF_EIGHT and rules.eight_cut != "off" and real & _MASK_8:
        return "eight"
    if ff & _FF_CUT and cut:
        return "eight_cut"
    if ff & _FF_S3 and spade3:
        return "spade3_return"
    if ff & _FF_REVO and revo:
        return "revolution"
    return None


def forbidden_finish_entry(
    move: Move, rules: RuleSet, revolution: bool, top: Move | None
) -> str | None:
    """Which ``forbidden_finish`` entry going out with ``move`` would break (RULES.md
    section 5), judged in the state before the play; ``None`` for a clean finish.

    >>> from rules_engine.cards import parse_cards
    >>> from rules_engine.moves import analyse
    >>> rules = RuleSet.preset("standard")
    >>> def entry(text: str) -> str | None:
    ...     move = analyse(parse_cards(text), None, False, 3)
    ...     return forbidden_finish_entry(move, rules, False, None)
    >>> entry("S2"), entry("S9"), entry("JK")
    ('top_rank', None, 'joker')
    """
    if move.form == PASS_FORM or not rules.ff_mask:
        return None
    return finish_entry(
        move,
        rules,
        revolution,
        cuts(move, rules),
        returns_spade3(move, rules, top),
        toggles_revolution(move, rules),
    )


def forbidden_finish(move: Move, rules: RuleSet, revolution: bool, top: Move | None) -> bool:
    """Whether going out with ``move`` would be an illegal finish."""
    return forbidden_finish_entry(move, rules, revolution, top) is not None


def effect_json(effect: Effect) -> dict[str, object]:
    """An effect as JSON data: its kind and the fields it uses.

    >>> effect_json(Effect(CLEARED, seat=1, reason="all_passed"))
    {'kind': 'cleared', 'seat': 1, 'reason': 'all_passed'}
    >>> effect_json(Effect(GIFT, seat=0, to=3, cards=0b11 << 48, size=2))["cards"]
    'S2 H2'

    """
    data: dict[str, object] = {"kind": effect.kind}
    for name, default in _DEFAULTS.items():
        value = getattr(effect, name)
        if value != default:
            if name == "move":
                value = str(value)
            elif name == "cards":
                value = format_cards(value)
            data[name] = value
    return data


_DEFAULTS: dict[str, object] = {
    name: default for name, default in Effect._field_defaults.items() if name != "kind"
}
