"""The rules checker: a table state in the scenario format, and what the engine says.

The visitor enters (or opens by link, ``?s=<json>``) a scenario (SCENARIOS.md): ``rules``,
``hands``, optional ``leader``, ``revolution``, ``previous``, and ``steps``: the plays so
far (``play``, ``pass``, ``give``). Check steps (``expect``, ``legal``, ``illegal``,
``illegal_give``) are skipped and counted, so a rules-page example opens as it is. The page
then shows the table, every legal move with what it would do (the engine's effects,
narrated), and, for a move the visitor names, what it does or why the engine refuses it.

Everything goes through the engine (:func:`rules_engine.scenarios.build_round`,
``Round.apply``, ``Round.legal_moves``); this module only reads the input and names what is
wrong with it, in the visitor's language. Input is bounded: :data:`MAX_INPUT` characters,
:data:`MAX_STEPS` steps, :data:`MAX_MOVES` moves listed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from daifugo_site import limits
from daifugo_site.ui.labels import cards_text, suits_text
from daifugo_site.ui.narrator import Line, narrate
from daifugo_site.ui.reasons import reason_text
from rules_engine import PRESET_NAMES, CardError, Refusal, Round, RulesError, RuleSet, card_codes
from rules_engine.cards import parse_cards
from rules_engine.moves import FORMS
from rules_engine.scenarios import SCENARIO_KEYS, STEP_KEYS, ScenarioError, build_round

MAX_INPUT = 4000
MAX_STEPS = 200
MAX_MOVES = 80
MAX_MOVE_TEXT = 80
# Arrays and objects inside one another: a scenario needs 4 (steps of moves of cards).
MAX_DEPTH = 8
ACTION_STEPS = ("play", "pass", "give", "choose", "name")
#: The presets a table state may name: the site's, and ``house`` (RULES.md section 8).
CHECKER_PRESETS = (*PRESET_NAMES, "house")

EXAMPLE = json.dumps(
    {
        "rules": {"preset": "standard"},
        "hands": ["D5 S2 C4", "H8 C9 S4", "SK H3", "CJ DQ"],
        "leader": 1,
        "steps": [{"play": "D5"}],
    },
    ensure_ascii=False,
    indent=1,
)


class InputError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def seat_label(seat: int) -> str:
    """The engine's seat ``seat`` (0-based) as the site names it: seat 1 is the first."""
    return _("Seat %(n)d") % {"n": seat + 1}


def _is_seat_number(value: Any, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= n


def scenario_as_input(data: dict[str, Any]) -> dict[str, Any]:
    """A scenario (the engine's 0-based seats) in the checker's words: seats counted from
    1 in ``leader``, ``previous`` and each step's ``by``, like every page of the site."""
    out = dict(data)
    if isinstance(out.get("leader"), int):
        out["leader"] += 1
    if isinstance(out.get("previous"), list):
        out["previous"] = [p + 1 if isinstance(p, int) else p for p in out["previous"]]
    if isinstance(out.get("steps"), list):
        out["steps"] = [
            {**step, "by": step["by"] + 1}
            if isinstance(step, dict) and isinstance(step.get("by"), int)
            else step
            for step in out["steps"]
        ]
    return out


@dataclass
class MoveLine:
    text: str
    codes: list[str]
    lines: list[Line]


@dataclass
class SeatRow:
    seat: int
    name: str
    codes: list[str]
    to_act: bool
    out: bool


@dataclass
class Result:
    error: str = ""
    seats: list[SeatRow] = field(default_factory=list)
    field_codes: list[str] = field(default_factory=list)
    field_name: str = ""
    indicators: list[str] = field(default_factory=list)
    status: str = ""
    history: list[Line] = field(default_factory=list)
    moves: list[MoveLine] = field(default_factory=list)
    more_moves: int = 0
    skipped: int = 0
    tried: MoveLine | None = None
    refused: str = ""


def _card_problem(text: str, where: str) -> str:
    """Name the first token of ``text`` that is not a card."""
    for token in text.replace(",", " ").split():
        try:
            parse_cards(token)
        except CardError:
            return _(
                "%(where)s: %(token)s is not a card. Write cards as suit and rank, like S3, "
                "HT, DK, or JK for a joker."
            ) % {"where": where, "token": token}
    return _("%(where)s: the same card is written twice.") % {"where": where}


def _parse(text: str) -> dict[str, Any]:
    if len(text) > MAX_INPUT:
        raise InputError(
            _("The table state is too long: at most %(limit)d characters.") % {"limit": MAX_INPUT}
        )
    # A scenario nests a few levels deep; thousands of brackets made the parser (or the
    # steps' reading) recurse to a RecursionError, a 500 (issue 45). Checked before parsing.
    if limits.depth_exceeds(text, MAX_DEPTH):
        raise InputError(_("This is not a valid table state."))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            _("This is not valid JSON (line %(line)d, column %(column)d).")
            % {"line": exc.lineno, "column": exc.colno}
        ) from None
    except (RecursionError, ValueError):
        raise InputError(_("This is not a valid table state.")) from None
    # A lone surrogate ("\ud800") parses, then cannot be written out as UTF-8 (a 500 when
    # the page echoed it): no real card, seat or rule name has one.
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(_("This is not a valid table state.")) from None
    if not isinstance(data, dict):
        raise InputError(_("The table state must be a JSON object with rules, hands and steps."))
    unknown = sorted(set(data) - SCENARIO_KEYS - {"plays"})
    if unknown:
        raise InputError(_("Unknown key: %(key)s.") % {"key": unknown[0]})
    if "plays" in data and "steps" not in data:  # the tutor's name for the same list
        data["steps"] = data.pop("plays")
    for key in ("rules", "hands"):
        if key not in data:
            raise InputError(_("The key %(key)s is missing.") % {"key": key})
    data.setdefault("steps", [])
    return data


def _rules(data: dict[str, Any]) -> RuleSet:
    rules = data["rules"]
    if not isinstance(rules, dict):
        raise InputError(_('rules must be an object, such as {"preset": "standard"}.'))
    preset = rules.get("preset", "basic")
    if preset not in CHECKER_PRESETS:
        raise InputError(
            _("Unknown rule preset %(name)s: use one of %(names)s.")
            % {
                "name": json.dumps(preset, ensure_ascii=False)[:40],
                "names": ", ".join(CHECKER_PRESETS),
            }
        )
    try:
        return RuleSet.from_json(rules)
    except (RulesError, TypeError, ValueError):
        options = sorted(set(rules) - {"preset"})
        raise InputError(
            _("The rule options could not be read: check %(options)s.")
            % {"options": ", ".join(options)[:200]}
        ) from None


def _start(data: dict[str, Any], rules: RuleSet) -> Round:
    hands = data["hands"]
    if not isinstance(hands, list) or not 2 <= len(hands) <= 6:
        raise InputError(_("hands must list 2 to 6 hands, one string of cards per player."))
    for seat, hand in enumerate(hands):
        if not isinstance(hand, str):
            raise InputError(
                _("%(where)s: a hand must be a string of cards.") % {"where": seat_label(seat)}
            )
        try:
            parse_cards(hand, max(2, rules.jokers))
        except CardError:
            raise InputError(_card_problem(hand, seat_label(seat))) from None
    n = len(hands)
    leader = data.get("leader")
    if leader is not None and not _is_seat_number(leader, n):
        raise InputError(_("leader must be a seat number from 1 to %(last)d.") % {"last": n})
    if "revolution" in data and not isinstance(data["revolution"], bool):
        raise InputError(_("revolution must be true or false."))
    previous = data.get("previous")
    if previous is not None and (
        not isinstance(previous, list)
        or not all(_is_seat_number(p, n) for p in previous)
        or sorted(previous) != list(range(1, n + 1))
    ):
        raise InputError(_("previous must list every seat once, from first place to last."))
    # The engine counts seats from 0.
    engine = {**data, "steps": []}
    if leader is not None:
        engine["leader"] = leader - 1
    if previous is not None:
        engine["previous"] = [p - 1 for p in previous]
    try:
        return build_round({"name": "", **engine})
    except ScenarioError as exc:
        text = str(exc)
        if "two hands" in text:
            raise InputError(_("A card is in two hands.")) from None
        if "jokers" in text:
            raise InputError(
                _("There are more jokers in the hands than these rules use (%(n)d).")
                % {"n": rules.jokers}
            ) from None
        raise InputError(_("The hands could not be dealt as written.")) from None


def _run_steps(r: Round, steps: Any) -> tuple[Round, list[Line], int]:
    if not isinstance(steps, list):
        raise InputError(_("steps must be a list of plays."))
    if len(steps) > MAX_STEPS:
        raise InputError(_("Too many steps: at most %(limit)d.") % {"limit": MAX_STEPS})
    history: list[Line] = []
    skipped = 0
    for i, step in enumerate(steps, 1):
        where = _("Step %(n)d") % {"n": i}
        if not isinstance(step, dict):
            raise InputError(
                _('%(where)s must be an object, such as {"play": "S3"}.') % {"where": where}
            )
        kinds = [k for k in STEP_KEYS if k in step]
        if len(kinds) != 1:
            raise InputError(
                _("%(where)s must have exactly one of play, pass or give.") % {"where": where}
            )
        kind = kinds[0]
        if kind not in ACTION_STEPS:
            skipped += 1
            continue
        unknown = sorted(set(step) - STEP_KEYS[kind])
        if unknown:
            raise InputError(
                _("%(where)s: unknown key %(key)s.") % {"where": where, "key": unknown[0]}
            )
        by = step.get("by")
        if by is not None and not _is_seat_number(by, r.n):
            raise InputError(_("%(where)s: by must be a seat number.") % {"where": where})
        if by is not None:
            by -= 1  # the engine's seat
        form = step.get("form")
        if form is not None and form not in FORMS:
            raise InputError(
                _("%(where)s: form must be single, group or sequence.") % {"where": where}
            )
        if kind == "pass":
            out = r.apply("pass", seat=by)
        elif kind == "name":
            # A 12-bomber's ranks (rank letters); the engine reads and judges them.
            ranks = step[kind]
            if not isinstance(ranks, str) or len(ranks) > 40:
                raise InputError(_("%(where)s: the ranks must be a string.") % {"where": where})
            out = r.name(by, ranks)
        else:
            cards = step[kind]
            if not isinstance(cards, str):
                raise InputError(_("%(where)s: the cards must be a string.") % {"where": where})
            try:
                parse_cards(cards, max(2, r.rules.jokers))
            except CardError:
                raise InputError(_card_problem(cards, where)) from None
            if kind == "give":
                if by is None:
                    raise InputError(_("%(where)s: a give needs by (the seat).") % {"where": where})
                out = r.give(by, cards)
            elif kind == "choose":
                out = r.choose(by, cards)
            else:
                out = r.apply(cards, seat=by, form=form)
        if isinstance(out, Refusal):
            raise InputError(
                _("%(where)s is refused: %(reason)s")
                % {"where": where, "reason": reason_text(out.reason)}
            )
        history.extend(narrate(out.effects, seat_label))
        r = out
    return r, history, skipped


def _move_line(r: Round, move: Any) -> MoveLine:
    after = r.apply(move)
    assert not isinstance(after, Refusal)
    codes = [] if move.is_pass else card_codes(move.cards)
    text = _("Pass") if move.is_pass else cards_text(codes)
    return MoveLine(text, codes, narrate(after.effects, seat_label, skip=("played", "passed")))


def _table(result: Result, r: Round) -> None:
    places = r.places()
    for s in range(r.n):
        result.seats.append(
            SeatRow(s, seat_label(s), card_codes(r.hands[s]), s == r.to_act, places[s] is not None)
        )
    if r.top is not None:
        result.field_codes = card_codes(r.top.cards)
        result.field_name = seat_label(r.last) if r.last >= 0 else ""
    if r.revolution:
        result.indicators.append(_("Revolution: the order is reversed"))
    if r.jback:
        result.indicators.append(_("11-back: reversed until the field clears"))
    if r.lock:
        result.indicators.append(_("Suit lock: %(suits)s") % {"suits": suits_text(r.lock)})
    if r.nlock:
        result.indicators.append(_("Number lock: one rank stronger each play"))
    if r.over:
        result.status = _("The round is over.")
    elif r.to_act < 0:
        result.status = _("The exchange is under way: a seat owes cards.")
    elif r.owed_choice() is not None:
        # A house rule's choice (7-pass, 10-discard, 12-bomber): the narrator's words.
        owes = [e for e in r.effects if e.kind == "owes"]
        lines = narrate(owes, seat_label) if owes else []
        result.status = (
            lines[0].text if lines else _("%(name)s is to act.") % {"name": seat_label(r.to_act)}
        )
    else:
        result.status = _("%(name)s is to act.") % {"name": seat_label(r.to_act)}


def check(text: str, move_text: str = "") -> Result:
    """What the engine says about the table state ``text`` (and the move ``move_text``)."""
    result = Result()
    try:
        data = _parse(text)
        rules = _rules(data)
        r = _start(data, rules)
        r, result.history, result.skipped = _run_steps(r, data["steps"])
    except InputError as exc:
        result.error = exc.message
        return result
    _table(result, r)
    if not r.over and r.to_act >= 0:
        legal = r.legal_moves()
        result.moves = [_move_line(r, m) for m in legal[:MAX_MOVES]]
        result.more_moves = max(0, len(legal) - MAX_MOVES)
    move_text = move_text.strip()[:MAX_MOVE_TEXT]
    if move_text:
        _try(result, r, move_text)
    return result


def _try(result: Result, r: Round, text: str) -> None:
    if r.over or r.to_act < 0:
        result.refused = reason_text("round_over" if r.over else "wrong_phase")
        return
    cards, _sep, form = text.partition("/")
    if cards.strip().lower() in ("pass", _("Pass").lower()):
        out = r.apply("pass")
        move = next((m for m in r.legal_moves() if m.is_pass), None)
    else:
        try:
            parse_cards(cards, max(2, r.rules.jokers))
        except CardError:
            result.refused = _card_problem(cards, _("Your move"))
            return
        if form and form not in FORMS:
            result.refused = _("Your move: form must be single, group or sequence.")
            return
        out = r.apply(cards, form=form or None)
        move = None
    if isinstance(out, Refusal):
        result.refused = reason_text(out.reason)
        return
    codes = [] if move is not None else card_codes(parse_cards(cards, max(2, r.rules.jokers)))
    label = _("Pass") if move is not None else cards_text(codes)
    result.tried = MoveLine(
        label, codes, narrate(out.effects, seat_label, skip=("played", "passed"))
    )
