"""What the review page shows: the stored figures, the position, and sentences.

The stored review holds numbers and move codes only. Here each reviewed decision gets its
position (the reviewed seat's own observation, rebuilt from the log: own hand, field,
counts, indicators) and its sentences, built from the engine's effects of the move made
and of the preferred one (:func:`daifugo_site.ui.narrator.narrate`) and from the solver's
verdict, in the visitor's language. Nothing here compares two states.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from daifugo_site.play.presenter import seat_name
from daifugo_site.ui.labels import and_text, cards_text, suits_text, title_label
from daifugo_site.ui.narrator import Line, narrate
from daifugo_site.ui.templatetags.cards import card_name
from rules_engine import (
    Action,
    Match,
    Observation,
    Refusal,
    Round,
    card_codes,
    parse_cards,
    titles_for,
)
from rules_engine.effects import visible_to

from .models import Review

#: Mistakes shown first, worst first; the rest are listed below them.
WORST_FIRST = 5


def move_codes(text: str) -> list[str]:
    if text == "pass":
        return []
    return card_codes(parse_cards(text.partition("/")[0]))


def move_label(text: str) -> str:
    """A stored move in words: "passing" or the cards' names."""
    if text == "pass":
        return _("a pass")
    return cards_text(move_codes(text))


def choice_label(item: dict[str, Any], text: str) -> str:
    """A stored move, return or house-rule choice in words (a naming's ranks as ranks)."""
    if item.get("choice") == "name":
        from daifugo_site.ui.labels import ranks_text
        from rules_engine.state import parse_ranks

        ranks = parse_ranks(text)
        return ranks_text(ranks) if isinstance(ranks, int) else text
    return move_label(text)


def choice_codes(item: dict[str, Any], text: str) -> list[str]:
    return [] if item.get("choice") == "name" else move_codes(text)


def points(value: float) -> str:
    return number_format(value, decimal_pos=2)


@dataclass
class SeatLine:
    name: str
    count_text: str
    is_you: bool
    out: bool


@dataclass
class Position:
    hand_codes: list[str]
    field_codes: list[str]
    field_name: str
    seats: list[SeatLine]
    indicators: list[tuple[str, str]]
    round_no: int


@dataclass
class DecisionView:
    index: int
    round_no: int
    made: str
    best: str
    made_label: str
    best_label: str
    made_codes: list[str]
    best_codes: list[str]
    cost: float
    cost_text: str
    mistake: bool
    exact: bool
    figures: str
    sentences: list[str]
    made_lines: list[Line] = field(default_factory=list)
    best_lines: list[Line] = field(default_factory=list)
    position: Position | None = None
    puzzle_ok: bool = False


def _position(game: Any, obs: Observation, round_no: int) -> Position:
    seats = []
    for s in range(obs.players):
        n = obs.counts[s]
        seats.append(
            SeatLine(
                name=seat_name(game, s),
                count_text=ngettext("%(n)s card", "%(n)s cards", n) % {"n": n},
                is_you=s == obs.seat,
                out=s in obs.out,
            )
        )
    indicators = []
    if obs.revolution:
        indicators.append(("revolution", _("Revolution: the order is reversed")))
    if obs.jback:
        indicators.append(("jback", _("11-back: reversed until the field clears")))
    if obs.lock:
        indicators.append(("lock", _("Suit lock: %(suits)s") % {"suits": suits_text(obs.lock)}))
    if obs.number_lock:
        indicators.append(("number-lock", _("Number lock: one rank stronger each play")))
    return Position(
        hand_codes=card_codes(obs.hand),
        field_codes=card_codes(obs.field.cards) if obs.field is not None else [],
        field_name=seat_name(game, obs.field_seat) if obs.field_seat is not None else "",
        seats=seats,
        indicators=indicators,
        round_no=round_no + 1,
    )


def _effects(
    game: Any, r: Round, seat: int, text: str, kind: str = "play", choice: str = ""
) -> list[Line]:
    """What ``text`` (a stored move, return or house-rule choice) does from ``r``, told
    by the engine's effects, as ``seat`` may see them."""
    if kind == "give":
        out = r.give(seat, text)
    elif kind == "choice":
        out = r.name(seat, text) if choice == "name" else r.choose(seat, text)
    elif text == "pass":
        out = r.apply("pass", seat=seat)
    else:
        cards, _sep, form = text.partition("/")
        out = r.apply(cards, seat=seat, form=form or None)
    if isinstance(out, Refusal):
        return []
    # The move itself is shown as cards; the lines tell what it did besides.
    return narrate(
        visible_to(out.effects, seat), lambda s: seat_name(game, s), skip=("played", "passed")
    )


def place_text(place: int, players: int) -> str:
    """A finishing place with the title it earns: "place 1 (Daifugō)"."""
    title = title_label(titles_for(range(players))[place - 1]) if 0 < place <= players else ""
    if not title:
        return _("place %(place)d") % {"place": place}
    return _("place %(place)d (%(title)s)") % {"place": place, "title": title}


def _unit_sentence(unit: str, taken: str, give: bool) -> str:
    """A group or sequence of the hand broken up by the move (or the return)."""
    codes = move_codes(unit)
    # The unit is named as a whole ("the pair ♥6 and ♣6"), what was played as a list.
    args = {"cards": and_text(card_name(c) for c in codes), "played": cards_text(move_codes(taken))}
    ranks = {code[1:] for code in codes}
    if len(ranks) > 1:
        if give:
            return _("You broke up your sequence %(cards)s to give back %(played)s.") % args
        return _("You broke up your sequence %(cards)s to play %(played)s.") % args
    if len(codes) == 2:
        if give:
            return _("You broke up your pair %(cards)s to give back %(played)s.") % args
        return _("You broke up your pair %(cards)s to play %(played)s.") % args
    if len(codes) == 3:
        if give:
            return _("You broke up your three of a kind %(cards)s to give back %(played)s.") % args
        return _("You broke up your three of a kind %(cards)s to play %(played)s.") % args
    if give:
        return _("You broke up your four of a kind %(cards)s to give back %(played)s.") % args
    return _("You broke up your four of a kind %(cards)s to play %(played)s.") % args


def fact_sentence(fact: dict[str, Any], give: bool = False) -> str | None:
    """One fact of :func:`daifugo_site.review.analysis.facts` as a sentence."""
    kind = fact.get("kind")
    if kind == "broke":
        return _unit_sentence(fact["cards"], fact["played"], give)
    if kind == "unbeatable":
        return _(
            "No one else could have beaten %(cards)s (count the cards still unseen): you "
            "would have kept the lead."
        ) % {"cards": move_label(fact["cards"])}
    if kind == "eight_cut":
        return _("%(cards)s would have been an 8-cut: the field clears and you lead again.") % {
            "cards": move_label(fact["cards"])
        }
    if kind == "revolution":
        if fact["by"] == "made":
            if fact["on"]:
                return _(
                    "Your play started a revolution: from then on your strong cards were the "
                    "weak ones."
                )
            return _("Your play ended the revolution: the order of strength turned back.")
        if fact["on"]:
            return _("The preferred play starts a revolution and reverses the order of strength.")
        return _("The preferred play ends the revolution and turns the order of strength back.")
    if kind == "early":
        return ngettext(
            "You spent %(cards)s, among the strongest cards, with %(n)d card still in your hand.",
            "You spent %(cards)s, among the strongest cards, with %(n)d cards still in your hand.",
            fact["left"],
        ) % {"cards": move_label(fact["cards"]), "n": fact["left"]}
    if kind == "stuck":
        return _(
            "After this play you would have only %(cards)s left, and going out with it is an "
            "illegal finish under these rules."
        ) % {"cards": move_label(fact["cards"])}
    if kind == "penalised":
        return _(
            "Going out with %(cards)s is an illegal finish: it puts you in the last place."
        ) % {"cards": move_label(fact["cards"])}
    return None


def _choice_sentences(item: dict[str, Any]) -> list[str]:
    """A house-rule choice (RULES.md section 8) the search would have made otherwise: what
    was given, discarded or named, the preferred choice, and what it would have kept."""
    made, best = choice_label(item, item["made"]), choice_label(item, item["best"])
    args = {
        "made": made,
        "best": best,
        "best_points": points(item["best_mean"]),
        "made_points": points(item["made_mean"]),
    }
    choice = item.get("choice")
    if choice == "give":
        out = [
            _(
                "With 7-pass you gave %(made)s; the search prefers giving %(best)s: about "
                "%(best_points)s points expected against %(made_points)s."
            )
            % args
        ]
    elif choice == "discard":
        out = [
            _(
                "With 10-discard you discarded %(made)s; the search prefers discarding "
                "%(best)s: about %(best_points)s points expected against %(made_points)s."
            )
            % args
        ]
    else:
        out = [
            _(
                "With 12-bomber you named %(made)s; the search prefers naming %(best)s: about "
                "%(best_points)s points expected against %(made_points)s."
            )
            % args
        ]
    for fact in item.get("facts", []):
        cards = move_label(fact["cards"])
        if fact.get("kind") == "kept" and choice == "give":
            out.append(
                _("Giving %(best)s instead would have kept %(cards)s in your hand.")
                % {"best": best, "cards": cards}
            )
        elif fact.get("kind") == "kept":
            out.append(
                _("Discarding %(best)s instead would have kept %(cards)s in your hand.")
                % {"best": best, "cards": cards}
            )
        elif fact.get("kind") == "lost":
            out.append(
                _("Naming %(made)s made you discard your own %(cards)s too.")
                % {"made": made, "cards": cards}
            )
    return out


def _sentences(item: dict[str, Any], players: int) -> list[str]:
    if item.get("kind") == "choice" and item["made"] != item["best"]:
        return _choice_sentences(item)
    made, best = choice_label(item, item["made"]), choice_label(item, item["best"])
    out: list[str] = []
    verdict = item.get("verdict")
    if verdict is not None:
        place = place_text(verdict["place"], players)
        if verdict["winnable"] and not verdict["made_wins"] and item["made"] == "pass":
            out.append(
                _(
                    "You passed, but from here %(best)s makes sure you finish in %(place)s "
                    "against any defence (the endgame solver checked every reply)."
                )
                % {"best": best, "place": place}
            )
        elif verdict["winnable"] and not verdict["made_wins"]:
            out.append(
                _(
                    "From here %(best)s makes sure you finish in %(place)s against any "
                    "defence; after %(made)s the other player can stop you."
                )
                % {"best": best, "made": made, "place": place}
            )
        elif verdict["winnable"]:
            out.append(
                _(
                    "From here %(made)s makes sure you finish in %(place)s against any "
                    "defence: well played."
                )
                % {"made": made, "place": place}
            )
        else:
            out.append(
                _(
                    "From here no move makes sure of %(place)s: the other player can always "
                    "stop you."
                )
                % {"place": place}
            )
    elif item["made"] == item["best"]:
        out.append(
            _("The search agrees with %(made)s: about %(points)s points expected.")
            % {"made": made, "points": points(item["made_mean"])}
        )
    else:
        out.append(
            _(
                "The search prefers %(best)s: about %(best_points)s points expected "
                "(± %(best_se)s) against %(made_points)s (± %(made_se)s) after %(made)s."
            )
            % {
                "best": best,
                "made": made,
                "best_points": points(item["best_mean"]),
                "best_se": points(item["best_se"]),
                "made_points": points(item["made_mean"]),
                "made_se": points(item["made_se"]),
            }
        )
    give = item.get("kind") == "give"
    if "facts" in item:
        for fact in item["facts"]:
            if fact.get("kind") == "lost_win":
                continue  # the solver's sentence above says it
            sentence = fact_sentence(fact, give)
            if sentence:
                out.append(sentence)
    else:  # a review stored before facts were recorded
        for unit in item.get("broke", []):
            out.append(
                _("Your play broke up %(cards)s, which could have been played together.")
                % {"cards": cards_text(card_codes(parse_cards(unit)))}
            )
    return out


def _figures(item: dict[str, Any]) -> str:
    if item.get("verdict") is not None:
        return _("Exact: the endgame solver settled this position.")
    return ngettext(
        "Estimated from %(n)d sampled deal of the hidden cards per move.",
        "Estimated from %(n)d sampled deals of the hidden cards per move.",
        item["worlds"],
    ) % {"n": item["worlds"]}


def positions(game: Any, seat: int, indices: set[int]) -> dict[int, tuple[Round, Observation, int]]:
    """The true round, the seat's observation and the round number just before each
    action index in ``indices`` (one replay of the log)."""
    rec = dict(game.record())
    actions = [Action.from_json(a) for a in rec["actions"]]
    rec["actions"] = []
    m = Match.from_record(rec)
    found: dict[int, tuple[Round, Observation, int]] = {}
    for i, action in enumerate(actions):
        if i in indices:
            found[i] = (m.round, m.observe(seat), m.round_no)
        out = m.apply(action)
        if isinstance(out, Refusal):
            break
        m = out
    return found


def decision_view(
    game: Any, item: dict[str, Any], at: tuple[Round, Observation, int] | None
) -> DecisionView:
    view = DecisionView(
        index=item["i"],
        round_no=item["round"] + 1,
        made=item["made"],
        best=item["best"],
        made_label=choice_label(item, item["made"]),
        best_label=choice_label(item, item["best"]),
        made_codes=choice_codes(item, item["made"]),
        best_codes=choice_codes(item, item["best"]),
        cost=item["cost"],
        cost_text=points(item["cost"]),
        mistake=item["mistake"],
        exact=item.get("verdict") is not None,
        figures=_figures(item),
        sentences=_sentences(item, game.players),
    )
    verdict = item.get("verdict")
    view.puzzle_ok = bool(verdict and verdict["winnable"])
    if at is not None:
        r, obs, round_no = at
        view.position = _position(game, obs, round_no)
        kind, choice = item.get("kind", "play"), item.get("choice", "")
        view.made_lines = _effects(game, r, obs.seat, item["made"], kind, choice)
        if item["best"] != item["made"]:
            view.best_lines = _effects(game, r, obs.seat, item["best"], kind, choice)
    return view


@dataclass
class ReviewView:
    review: Review
    worst: list[DecisionView]
    others: list[DecisionView]
    mistakes: int
    total_cost: str
    hints: int


def review_view(review: Review, hints: int) -> ReviewView:
    game = review.game
    items = list(review.items)
    ranked = sorted((it for it in items if it["mistake"]), key=lambda it: (-it["cost"], it["i"]))
    worst_items = ranked[:WORST_FIRST]
    at = positions(game, review.seat, {it["i"] for it in worst_items})
    worst = [decision_view(game, it, at.get(it["i"])) for it in worst_items]
    shown = {it["i"] for it in worst_items}
    others = [decision_view(game, it, None) for it in items if it["i"] not in shown]
    total = sum(it["cost"] for it in ranked)
    return ReviewView(
        review=review,
        worst=worst,
        others=others,
        mistakes=len(ranked),
        total_cost=points(total),
        hints=hints,
    )


def _choice_hint(choice: Any, best: str) -> str:
    """A house-rule choice's suggestion (RULES.md section 8)."""
    if choice == "name":
        from daifugo_site.ui.labels import ranks_text
        from rules_engine.state import parse_ranks

        ranks = parse_ranks(best)
        named = ranks_text(ranks) if isinstance(ranks, int) else best
        return _("Suggestion: name %(ranks)s.") % {"ranks": named}
    cards = cards_text(card_codes(parse_cards(best)))
    if choice == "give":
        return _("Suggestion: give %(cards)s.") % {"cards": cards}
    return _("Suggestion: discard %(cards)s.") % {"cards": cards}


def hint_sentences(result: dict[str, Any]) -> tuple[str, list[str]]:
    """The hint's suggestion (words) and its short reasons."""
    kind = result.get("kind")
    best = result.get("best", "")
    if kind == "give":
        return (
            _("Give back %(cards)s.") % {"cards": cards_text(card_codes(parse_cards(best)))},
            [_("These are the cards your hand needs least: keep your strong cards and groups.")],
        )
    if kind == "forced":
        return (_("Only one move is possible: %(move)s.") % {"move": move_label(best)}, [])
    if kind == "choice":
        return _choice_hint(result.get("choice"), best), []
    label = move_label(best)
    suggestion = (
        _("Suggestion: pass.")
        if best == "pass"
        else _("Suggestion: play %(cards)s.") % {"cards": label}
    )
    reasons: list[str] = []
    verdict = result.get("verdict")
    if verdict is not None and verdict["winnable"]:
        reasons.append(
            _("It makes sure you finish in place %(place)d against any defence.")
            % {"place": verdict["place"]}
        )
    elif result.get("obvious") and result["obvious"] != best:
        reasons.append(
            _(
                "About %(best_points)s points expected, against %(other_points)s for the "
                "obvious %(other)s."
            )
            % {
                "best_points": points(result["best_mean"]),
                "other_points": points(result["made_mean"]),
                "other": move_label(result["obvious"]),
            }
        )
    else:
        reasons.append(
            _("About %(points)s points expected; no other move does clearly better.")
            % {"points": points(result.get("best_mean", 0.0))}
        )
    # What the engine and the card count say about the suggestion itself.
    for fact in result.get("facts", []):
        if fact.get("kind") == "unbeatable":
            reasons.append(
                _("No one else can beat %(cards)s: you keep the lead.")
                % {"cards": move_label(fact["cards"])}
            )
        elif fact.get("kind") == "eight_cut":
            reasons.append(
                _("%(cards)s is an 8-cut: the field clears and you lead again.")
                % {"cards": move_label(fact["cards"])}
            )
    return suggestion, reasons
