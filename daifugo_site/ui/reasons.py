"""Words for the engine's refusal reasons, shared by the play page and the tutor.

The engine answers a refused action with a reason code (SCENARIOS.md); people read these
sentences instead. Each is a whole sentence with its punctuation, translated as a unit.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

REASON_TEXT: dict[str, str | Promise] = {
    "round_over": _("The round is already over."),
    "wrong_phase": _("That is not possible at this stage of the round."),
    "passed_until_clear": _("You passed, so you sit out until the field is cleared."),
    "not_your_turn": _("It is not your turn."),
    "not_in_hand": _("You do not hold those cards."),
    "bad_exchange": _("Give back exactly as many cards as you received."),
    "not_a_combination": _(
        "Those cards do not make a single card, a group of one rank or a sequence of one suit."
    ),
    "leader_cannot_pass": _("The field is empty and it is your lead, so you cannot pass."),
    "wrong_form": _(
        "Answer with the same kind of play as the field: a single, a group or a sequence."
    ),
    "wrong_count": _("Answer with the same number of cards as the play on the field."),
    "suit_locked": _("The suits are locked: follow with the same suits until the field clears."),
    "number_locked": _("Number lock: play exactly one rank stronger than the field."),
    "not_stronger": _("Your play must be stronger than the one on the field."),
    # House-rule choices (RULES.md section 8).
    "choice_owed": _(
        "A choice is owed first: give, discard or name before anything else is played."
    ),
    "no_choice_owed": _("No choice is owed now."),
    "not_a_rank": _("That is not a rank: name ranks from 3 to 2 (the joker is not one)."),
    "rank_repeated": _("Each rank may be named only once."),
    # The engine's wrong_count, said of a choice rather than of a play (play/consumers.py).
    "choice_wrong_count": _("Choose exactly as many as the rule asks for."),
    # Not engine reasons: what the site itself refuses.
    "stale": _("The game moved on before your action arrived, so it was not applied."),
    "not_owner": _("Only the browser that started this game can play in it."),
    "no_such_game": _("This game does not exist."),
    "malformed": _("That message could not be read."),
    "unknown_action": _("Unknown action."),
    "unknown_card": _("A card in that action does not exist."),
    "flood": _("Too many messages at once: please slow down."),
    # The database did not answer, or not in time (daifugo_site/outage.py).
    "unavailable": _(
        "The server's database is not answering just now. Nothing you played is lost: "
        "please try again in a moment."
    ),
}


def reason_text(reason: str | None) -> str:
    """The sentence for a reason code (a generic one for an unexpected code)."""
    text = REASON_TEXT.get(reason or "", None)
    if text is None:
        return str(_("That action is not allowed."))
    return str(text)
