"""UECda game records: the text a UECda server writes after a match, read and replayed.

A record (``/* game N ... */`` blocks) gives, per game, each player's class and seat,
the hands after the exchange (``original``) and every turn's action in order
(``p`` for a pass; ``ch-4`` a pair of fours in clubs and hearts; ``c-jqk`` a clubs
sequence; ``h-678(7)`` a sequence whose joker stands for the 7; ``ch-a(c)`` a pair
whose joker stands for the club; ``jk`` the lone joker). :func:`replay` plays every
turn through the engine (the ``uecda`` preset), so each decision comes out as the
round it was made in and the legal move that was chosen; a record the engine does
not accept is reported, never guessed at.

>>> text = '''player fuji1 fuji2 fuji3 fuji4 advanced
... /*
... game 0
... class 0 1 2 3 4
... seat 0 1 2 3 4
... original { d3 s4 } { h5 s9 } { c6 } { d7 } { s8 }
... play d-3 h-5 c-6 d-7 s-8
... result 4 0 1 2 3
... */'''
>>> [(g.index, g.names[4]) for g in read_records(text)]
[(0, 'advanced')]
>>> [str(m) for _, m in replay(read_records(text)[0])][:3]
['D3', 'H5', 'C6']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rules_engine.cards import JOKER_UNIT, RANKS, parse_cards
from rules_engine.moves import PASS_FORM, SEQUENCE, Move
from rules_engine.rules import RuleSet
from rules_engine.state import PLAY, Refusal, Round

#: Record rank letters, in the engine's rank order.
_RANKS = "3456789tjqka2"


class RecordError(ValueError):
    """A record the engine cannot replay."""


@dataclass(frozen=True)
class GameRecord:
    """One game of a record: hands indexed by *seat* (turn order), not by player."""

    index: int
    hands: tuple[int, ...]
    players: tuple[int, ...]  # player at each seat
    classes: tuple[int, ...]  # class of each seat (0 = daifugo)
    actions: tuple[str, ...]
    #: The name of the player at each seat, from the record's ``player`` line (empty
    #: when the record has none): a tournament's record holds this project's moves too.
    names: tuple[str, ...] = ()


def _card(token: str) -> int:
    if token == "jo":
        return JOKER_UNIT
    suit, rank = token[0], token[1]
    return parse_cards(suit.upper() + RANKS[_RANKS.index(rank)])


def _hands(line: str) -> list[int]:
    return [sum(_card(t) for t in body.split()) for body in re.findall(r"\{([^}]*)\}", line)]


def read_records(text: str) -> list[GameRecord]:
    """Every game in a record's text."""
    games = []
    # Names by player number, once at the top of a server's record.
    header = re.search(r"^player[ \t]+(.*)$", text, flags=re.M)
    names_by_player = header.group(1).split() if header else []
    for block in re.findall(r"/\*(.*?)\*/", text, flags=re.S):
        fields: dict[str, str] = {}
        for raw in block.strip().splitlines():
            key, _, rest = raw.strip().partition(" ")
            fields[key] = rest
        if "play" not in fields or "original" not in fields:
            continue
        seat_of = [int(x) for x in fields["seat"].split()]
        by_player = _hands(fields["original"])
        n = len(seat_of)
        players = [0] * n
        for p, s in enumerate(seat_of):
            players[s] = p
        classes_by_player = [int(x) for x in fields.get("class", "").split()] or list(range(n))
        actions = tuple(re.sub(r"\[\d*\]", "", t) for t in fields["play"].split())
        games.append(
            GameRecord(
                index=int(fields.get("game", "0").split()[0]),
                hands=tuple(by_player[players[s]] for s in range(n)),
                players=tuple(players),
                classes=tuple(classes_by_player[players[s]] for s in range(n)),
                actions=actions,
                names=tuple(names_by_player[players[s]] for s in range(n))
                if len(names_by_player) == n
                else (),
            )
        )
    return games


def _action(token: str) -> tuple[int, int | None]:
    """The cards of a record's action and whether they form a sequence (``None``: a
    pass; read once per action, then compared with each legal move)."""
    if token == "p":
        return 0, None
    if token == "jk":
        return JOKER_UNIT, 0
    # Four of a rank and the joker: the server writes the joker as a fifth suit, x, and
    # names all five in the brackets ("cdhsx-k(cdhsx)").
    five = re.fullmatch(r"cdhsx-([3-9tjqka2])\(cdhsx\)", token)
    if five is not None:
        rank = RANKS[_RANKS.index(five.group(1))]
        return sum(parse_cards(s + rank) for s in "CDHS") + JOKER_UNIT, 0
    match = re.fullmatch(r"([shdc]+)-([3-9tjqka2]+)(?:\(([3-9tjqka2shdc])\))?", token)
    if match is None:
        raise RecordError(f"unreadable action {token!r}")
    suits, ranks, joker_as = match.group(1), match.group(2), match.group(3)
    rank_idx = [_RANKS.index(r) for r in ranks]
    cards = 0
    for s in suits:
        for r in rank_idx:
            cards += parse_cards(s.upper() + RANKS[r])
    if joker_as is not None:
        if len(suits) > 1:  # a group: the joker stands for a suit
            cards -= parse_cards(joker_as.upper() + RANKS[rank_idx[0]])
        else:  # a sequence: the joker stands for a rank
            cards -= parse_cards(suits.upper() + RANKS[_RANKS.index(joker_as)])
        cards += JOKER_UNIT
    return cards, 1 if len(rank_idx) > 1 else 0


def _matches(m: Move, cards: int, sequence: int | None) -> bool:
    """Whether legal move ``m`` is the action read by :func:`_action`."""
    if sequence is None:
        return m.form == PASS_FORM
    if m.cards != cards:
        return False
    if sequence:
        # A joker at an end reads one way in the engine (a move is its cards and form).
        return m.form == SEQUENCE
    return m.form != SEQUENCE


def replay(game: GameRecord, rules: RuleSet | None = None) -> Iterator[tuple[Round, Move]]:
    """Each decision of ``game``: the round before it and the legal move chosen."""
    rules = rules or RuleSet.preset("uecda")
    r = Round.start(rules, list(game.hands))
    for token in game.actions:
        if r.phase != PLAY:
            raise RecordError(f"game {game.index}: an action after the round ended")
        cards, sequence = _action(token)
        found = [m for m in r.legal_moves() if _matches(m, cards, sequence)]
        if not found:
            raise RecordError(f"game {game.index}: {token!r} is not legal for seat {r.to_act}")
        move = found[0]
        yield r, move
        nxt = r.apply(move)
        if isinstance(nxt, Refusal):  # pragma: no cover - legal moves apply
            raise RecordError(nxt.reason)
        r = nxt


__all__ = ["GameRecord", "RecordError", "read_records", "replay"]
