"""What the play page shows, computed from the game and one seat's observation.

The templates only ever receive this view: it is built from
:func:`rules_engine.observe` for the human seat (or from public information only, for
a viewer), so no other hand can reach a page or a WebSocket message.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from dataclasses import dataclass, field
from typing import Any

from daifugo_site.bounded import Bounded
from daifugo_site.ui.labels import suit_labels, title_label
from daifugo_site.ui.language import get_language, ngettext, pgettext, pgettext_lazy
from daifugo_site.ui.language import gettext as _
from daifugo_site.ui.narrator import Line, narrate, out_causes, out_text
from rules_engine import Match, Move, Observation, Refusal, Round, card_codes, observe
from rules_engine import effects as fx
from rules_engine.cards import RANKS
from rules_engine.effects import Effect, visible_to
from rules_engine.match import apply_to_round
from rules_engine.state import CHOICE_KINDS

from .models import Game
from .services import absent_moves

_LEVELS = {
    "beginner": pgettext_lazy("computer level", "Beginner"),
    "intermediate": pgettext_lazy("computer level", "Intermediate"),
    "advanced": pgettext_lazy("computer level", "Advanced"),
}


def level_label(level: str | None) -> str:
    # One lookup per call (each push names every seat's level).
    found = _LEVELS.get(level or "")
    return str(found) if found is not None else ""


def seat_name(game: Game, seat: int, owner_view: bool = True, viewer: int | None = None) -> str:
    """A seat's name: "You" for the human seat on its owner's page, otherwise a name a
    viewer can read too. At a room table (seat entries with a ``name``) people go by their
    nicknames, and ``viewer`` is the seat whose page this is."""
    entry = game.seats[seat] if 0 <= seat < len(game.seats) else {}
    if entry.get("name"):
        if owner_view and seat == (game.human_seat if viewer is None else viewer):
            return _("You")
        return str(entry["name"])
    if any(e.get("name") for e in game.seats):
        computers = [s for s, e in enumerate(game.seats) if e.get("kind") == "computer"]
        index = computers.index(seat) if seat in computers else 0
        return _("Computer %(n)d") % {"n": index + 1}
    if seat == game.human_seat:
        return _("You") if owner_view else _("Human player")
    # Numbered as the set-up form numbers their levels (Computer 1, 2, …), in seat order.
    return _("Computer %(n)d") % {"n": (seat - 1 if seat > game.human_seat else seat) + 1}


def move_codes(move: Move | None) -> list[str]:
    return card_codes(move.cards) if move is not None else []


# -- the log in words ------------------------------------------------------------------------

#: A line of the log: the narrator's (text, cards, kind).
Event = Line


def describe_step(game: Game, after: Round, viewer: int | None) -> list[Event]:
    """What the action that made ``after`` did, as sentences: the engine's effects as
    ``viewer`` may see them (None: public facts only; exchange cards only for the two
    seats concerned)."""
    owner_view = viewer is not None
    return narrate(
        visible_to(after.effects, viewer),
        lambda seat: seat_name(game, seat, owner_view, viewer),
    )


# Events only ever grow within a round: keep what was described, per game, language and
# viewer, with the round it is of, and describe only the new actions (a push then costs one
# step, not a replay). With them, why each penalised seat took its place (read from the
# same effects). One entry per page kind of a game (a new round replaces it), bounded in
# entries and idle time (daifugo_site/bounded.py): the games in play, not all ever seen.
_EVENTS: Bounded[
    tuple[str, str, int | None],
    tuple[int, int, Round, list[Event], dict[int, str], frozenset[int]],
] = Bounded(1024, idle_s=120.0)
_EVENTS_LOCK = threading.Lock()


def round_events(game: Game, match: Match, viewer: int | None) -> list[Event]:
    """The current round in sentences, for ``viewer`` (None: public facts only)."""
    return _round_record(game, match, viewer)[0]


def skipped_now(effects: tuple[Effect, ...], before: frozenset[int]) -> frozenset[int]:
    """The seats a 5-skip passed over, still marked after an action with ``effects``: the
    engine's ``skipped`` effects, kept until the next play or clear (a skipped seat sits
    out like a passed one until then)."""
    kinds = {e.kind for e in effects}
    kept = frozenset() if kinds & {fx.PLAYED, fx.CLEARED, fx.ROUND_OVER} else before
    return kept | {e.seat for e in effects if e.kind == fx.SKIPPED}


def _round_record(
    game: Game, match: Match, viewer: int | None
) -> tuple[list[Event], dict[int, str], frozenset[int]]:
    """The current round in sentences, seat -> why it took a place from the bottom
    (``rules_engine.effects.PENALISED`` or ``MIYAKO_OCHI``), and the seats a 5-skip marks
    now, from the engine's effects."""
    key = (game.id, get_language() or "", viewer)
    log = match.round_log()
    with _EVENTS_LOCK:
        cached = _EVENTS.get(key)
    if cached is not None and cached[0] == match.round_no and cached[1] <= len(log):
        done, r, events, causes, skipped = cached[1:]
        events, causes = list(events), dict(causes)
    else:
        r = match.deal_round(match.round_no)
        # The deal's own effects first: the automatic gifts of the exchange.
        done, events, causes = 0, describe_step(game, r, viewer), out_causes(r.effects)
        skipped = frozenset()
    # The computer's moves for absent people, as recorded with each move (services.py).
    absent = absent_moves(game)
    start = len(match.log) - len(log)
    for index, action in enumerate(log[done:], start=start + done):
        after = apply_to_round(r, action)
        assert not isinstance(after, Refusal), "a stored action no longer applies"
        step = describe_step(game, after, viewer)
        if index in absent and step:
            name = seat_name(game, absent[index], viewer is not None, viewer)
            step[0] = dataclasses.replace(
                step[0],
                text=_("%(line)s (The computer played for %(name)s.)")
                % {"line": step[0].text, "name": name},
            )
        events.extend(step)
        causes |= out_causes(after.effects)
        skipped = skipped_now(after.effects, skipped)
        r = after
    with _EVENTS_LOCK:
        _EVENTS[key] = (match.round_no, len(log), r, events, causes, skipped)
    return events, causes, skipped


def absent_now(game: Game, match: Match) -> set[int]:
    """The seats whose last move was the computer's for their absent person."""
    marks = absent_moves(game)
    if not marks:
        return set()
    last: dict[int, int] = {}
    for index, action in enumerate(match.log):
        if action.seat is not None:
            last[action.seat] = index
    return {seat for seat, index in last.items() if marks.get(index) == seat}


# -- the table ----------------------------------------------------------------------------------


# Hashable by value (every field is), and never changed once built.
@dataclass(unsafe_hash=True)
class SeatView:
    seat: int
    name: str
    level: str
    count: int
    title: str
    passed: bool
    place: int | None
    penalised: bool
    is_turn: bool
    is_you: bool
    score: int
    holds_field: bool
    #: Why a penalised seat took its place: the effect kind that put it there (see
    #: ``daifugo_site.ui.narrator.out_causes``); empty for a seat that went out cleanly.
    out_cause: str = ""
    #: What this seat is choosing for a house rule, in words (RULES.md section 8), or "".
    choosing: str = ""
    #: Passed over by a 5-skip (until the next play or clear).
    skipped: bool = False
    #: The seat's last move was the computer's, made for its absent person (as recorded
    #: with the move): the seat says so until the person plays again.
    absent: bool = False
    # Words, prepared here rather than in the template: this fragment is pushed on every
    # action, and gettext in Python costs less than the template's translation tags.
    count_text: str = ""
    score_text: str = ""
    state_text: str = ""
    absent_text: str = ""

    def __post_init__(self) -> None:
        if self.absent:
            self.absent_text = _("The computer is playing for them")
        self.count_text = ngettext("%(n)s card", "%(n)s cards", self.count) % {"n": self.count}
        self.score_text = ngettext("%(n)s point", "%(n)s points", self.score) % {"n": self.score}
        if self.place:
            self.state_text = out_text(self.place, self.out_cause if self.penalised else "")
        elif self.choosing:
            self.state_text = self.choosing
        elif self.skipped:
            self.state_text = pgettext("seat state", "Skipped (5-skip)")
        elif self.passed:
            self.state_text = _("Passed")
        elif self.is_turn:
            self.state_text = _("To play")


@dataclass
class ResultRow:
    place: int
    name: str
    title: str
    points: int
    total: int
    is_you: bool


@dataclass
class TableView:
    game: Game
    is_owner: bool
    version: int
    round_no: int
    rounds: int
    phase: str
    seats: list[SeatView]
    field_codes: list[str]
    field_name: str
    field_form: str
    revolution: bool
    jback: bool
    lock_suits: list[str]
    number_lock: bool
    hand_codes: list[str]
    legal: list[dict[str, Any]]
    playable_codes: set[str]
    your_turn: bool
    can_pass: bool
    owe: int
    gave_codes: list[str]
    got_codes: list[str]
    partner_name: str
    log: list[Event]
    announcement: str
    round_over: bool
    results: list[ResultRow]
    match_over: bool
    standings: list[ResultRow]
    winner_name: str
    # House rules (RULES.md section 8), all from the observation.
    #: 1 or -1 when 9-reverse is played (the direction is worth showing), else 0.
    direction: int = 0
    #: Every card discarded face up this round (10-discard, 12-bomber): public.
    discarded_codes: list[str] = field(default_factory=list)
    #: The choice the round waits for (anyone's), or None.
    owed: OwedView | None = None
    #: The prompt's words when this page's seat owes it.
    choice_prompt: str = ""
    #: The choice owed, said as the log says it ("7-pass: X chooses 2 cards to give to Y").
    owed_text: str = ""

    @property
    def legal_json(self) -> str:
        return json.dumps(self.legal)

    @property
    def choosing(self) -> bool:
        """Whether this page's player owes a house-rule choice now (the hand prompts it)."""
        return self.owed is not None and self.owed.mine

    @property
    def direction_text(self) -> str:
        if self.direction < 0:
            return _("Turn order: reversed by 9-reverse")
        return _("Turn order: the usual way")

    @property
    def rank_items(self) -> list[tuple[str, str]]:
        """The ranks a 12-bomber may name, as (letter, name), weakest first."""
        from daifugo_site.ui.cardviews import _rank_name

        return [(letter, _rank_name(letter)) for letter in RANKS]

    @property
    def quick_messages(self) -> bool:
        """Whether this page offers quick messages (daifugo_site/play/phrases.py)."""
        from .phrases import offered

        return offered(self.game, self.is_owner)

    @property
    def phrase_items(self) -> list[tuple[str, str]]:
        from .phrases import PHRASES

        return [(key, str(text)) for key, text in PHRASES.items()]

    @property
    def hand_items(self) -> list[HandCard]:
        """The hand in order, each card with its shortcut key and whether it is shaded
        (the player's turn and no legal play uses it)."""
        from daifugo_site.ui.templatetags.table import card_key

        dim = self.your_turn and not self.choosing
        return [
            HandCard(code, card_key(i), dim and code not in self.playable_codes)
            for i, code in enumerate(self.hand_codes)
        ]


@dataclass(frozen=True)
class HandCard:
    code: str
    key: str
    dim: bool


@dataclass(frozen=True)
class OwedView:
    """A house-rule choice owed (public: who, what, how many, to whom)."""

    seat: int
    kind: str  # "give", "discard" or "name" (rules_engine.state.CHOICE_KINDS)
    count: int
    receiver: int | None
    mine: bool


def owed_view(obs: Observation) -> OwedView | None:
    if obs.owed_choice is None or obs.phase != "play":
        return None
    seat, kind, k, receiver = obs.owed_choice
    return OwedView(
        seat, CHOICE_KINDS[kind], k, receiver if receiver >= 0 else None, seat == obs.seat
    )


def choosing_text(owed: OwedView, seat: int, name: Any) -> str:
    """A seat's plate while it owes a choice: "choosing 2 cards to give to You"."""
    n = owed.count
    if owed.kind == "give" and owed.receiver is not None:
        return ngettext(
            "7-pass: choosing %(n)d card to give to %(receiver)s",
            "7-pass: choosing %(n)d cards to give to %(receiver)s",
            n,
        ) % {"n": n, "receiver": name(owed.receiver)}
    if owed.kind == "discard":
        return ngettext(
            "10-discard: choosing %(n)d card to discard",
            "10-discard: choosing %(n)d cards to discard",
            n,
        ) % {"n": n}
    return ngettext("12-bomber: naming %(n)d rank", "12-bomber: naming %(n)d ranks", n) % {"n": n}


def choice_prompt(owed: OwedView, name: Any) -> str:
    """What the hand asks of its player while they owe a choice."""
    n = owed.count
    if owed.kind == "give" and owed.receiver is not None:
        return ngettext(
            "7-pass: choose %(n)d card to give to %(receiver)s, then press Give.",
            "7-pass: choose %(n)d cards to give to %(receiver)s, then press Give.",
            n,
        ) % {"n": n, "receiver": name(owed.receiver)}
    if owed.kind == "discard":
        return ngettext(
            "10-discard: choose %(n)d card to discard face up, then press Discard.",
            "10-discard: choose %(n)d cards to discard face up, then press Discard.",
            n,
        ) % {"n": n}
    return ngettext(
        "12-bomber: pick %(n)d rank, then press Name. Every player discards all their cards of it.",
        "12-bomber: pick %(n)d ranks, then press Name. Every player discards all their "
        "cards of them.",
        n,
    ) % {"n": n}


def table_view(game: Game, match: Match, *, is_owner: bool, seat: int | None = None) -> TableView:
    """The view of ``game`` for its owner (hand included) or for a viewer (public only).

    ``seat`` is the owner's seat when it is not the game's ``human_seat`` (a room table:
    each person's page shows their own seat)."""

    r = match.round
    if seat is None:
        seat = game.human_seat
    viewer = seat if is_owner else None
    obs: Observation = observe(r, seat)
    prev_titles = obs.previous_titles
    scores = match.scores
    places = r.places()
    # The log first: replaying it reads why each penalised seat took its place.
    events, causes, skipped = _round_record(game, match, seat if is_owner else None)
    # A game ended off the cards (a rated game's resignation or absence) leaves its round
    # where it stopped: no one is to move any more, whoever the round says is next.
    stopped = game.status == Game.Status.FINISHED and not match.over
    absent = absent_now(game, match)
    my_turn = obs.my_turn and not stopped
    owed = owed_view(obs) if not stopped else None
    seats = [
        SeatView(
            seat=s,
            name=seat_name(game, s, is_owner, viewer),
            level=level_label(game.computer_level(s)),
            count=obs.counts[s],
            title=title_label(prev_titles[s]) if prev_titles else "",
            passed=s in obs.passed,
            place=places[s] if s in r.out else None,
            penalised=s in r.penalised,
            is_turn=not stopped and obs.to_act == s,
            is_you=s == seat,
            score=scores[s],
            holds_field=obs.field_seat == s,
            out_cause=causes.get(s, ""),
            choosing=choosing_text(owed, s, lambda t: seat_name(game, t, is_owner, viewer))
            if owed is not None and owed.seat == s
            else "",
            skipped=s in skipped and s not in r.out,
            absent=s in absent,
        )
        for s in range(r.n)
    ]
    show_hand = is_owner
    legal: list[dict[str, Any]] = []
    playable: set[str] = set()
    can_pass = False
    if show_hand and my_turn:
        for move in obs.legal:
            if move.is_pass:
                can_pass = True
                continue
            codes = card_codes(move.cards)
            legal.append(
                {
                    "cards": codes,
                    "form": move.form_name,
                    "ambiguous": move.ambiguous,
                    "text": str(move),
                }
            )
            playable.update(codes)
    announcement = events[-1].text if events else ""
    results: list[ResultRow] = []
    if r.result is not None:
        titles = r.titles() or ()
        for place, s in enumerate(r.result):
            results.append(
                ResultRow(
                    place=place + 1,
                    name=seat_name(game, s, is_owner, viewer),
                    title=title_label(titles[s]),
                    points=r.n - 1 - place,
                    total=scores[s],
                    is_you=s == seat,
                )
            )
    standings: list[ResultRow] = []
    winner_name = ""
    if match.over:
        for place, s in enumerate(match.standings()):
            standings.append(
                ResultRow(
                    place + 1, seat_name(game, s, is_owner, viewer), "", 0, scores[s], s == seat
                )
            )
        winner = match.winner
        winner_name = seat_name(game, winner, is_owner, viewer) if winner is not None else ""
    field_name = (
        seat_name(game, obs.field_seat, is_owner, viewer) if obs.field_seat is not None else ""
    )
    return TableView(
        game=game,
        is_owner=is_owner,
        version=game.version,
        round_no=match.round_no + 1,
        rounds=match.rounds,
        phase=obs.phase,
        seats=seats,
        field_codes=move_codes(obs.field),
        field_name=field_name,
        field_form=obs.field.form_name if obs.field is not None else "",
        revolution=obs.revolution,
        jback=obs.jback,
        lock_suits=suit_labels(obs.lock),
        number_lock=obs.number_lock,
        hand_codes=card_codes(obs.hand) if show_hand else [],
        legal=legal,
        playable_codes=playable,
        your_turn=show_hand and my_turn,
        can_pass=can_pass,
        owe=obs.owe if show_hand else 0,
        gave_codes=card_codes(obs.gave) if show_hand else [],
        got_codes=card_codes(obs.got) if show_hand else [],
        partner_name=seat_name(game, obs.partner, is_owner, viewer)
        if obs.partner is not None
        else "",
        log=events,
        announcement=announcement,
        round_over=r.over,
        results=results,
        match_over=match.over,
        standings=standings,
        winner_name=winner_name,
        direction=obs.direction if r.rules.nine_reverse != "off" else 0,
        discarded_codes=card_codes(obs.discarded),
        owed=owed if owed is None or show_hand or not owed.mine else _not_mine(owed),
        choice_prompt=choice_prompt(owed, lambda t: seat_name(game, t, is_owner, viewer))
        if owed is not None and owed.mine and show_hand
        else "",
        owed_text=owed_sentence(owed, lambda t: seat_name(game, t, is_owner, viewer))
        if owed is not None
        else "",
    )


def owed_sentence(owed: OwedView, name: Any) -> str:
    """The narrator's sentence for the choice owed (the same words as the log's)."""
    effect = Effect(
        fx.OWES,
        owed.seat,
        to=owed.receiver if owed.receiver is not None else -1,
        size=owed.count,
        reason=owed.kind,
    )
    lines = narrate([effect], name)
    return lines[0].text if lines else ""


def _not_mine(owed: OwedView) -> OwedView:
    # A viewer's page shows the human seat without its hand: nothing to choose there.
    return OwedView(owed.seat, owed.kind, owed.count, owed.receiver, False)
