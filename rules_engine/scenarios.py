"""The scenario format of SCENARIOS.md: load, validate and run.

Scenarios are the conformance suite, the bug-report format, and how lessons
and rules pages state what a hand shows. A scenario is checked in two passes:
its shape (keys, cards) first, so that a malformed file is reported rather
than crashing the runner, then its steps through :class:`~rules_engine.Round`.

>>> result = run_scenario({
...     "name": "a single 8 clears the field",
...     "rules": {"preset": "standard"},
...     "hands": ["S8 H4", "D9 C5", "HK", "C6 D6"],
...     "leader": 0,
...     "steps": [{"play": "S8"}, {"expect": {"field": None, "to_act": 0}}],
... })
>>> result.ok
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import RANKS, SUITS, CardError, card_codes, format_cards, parse_cards
from .moves import FORMS
from .rules import RulesError, RuleSet
from .state import CHOICE_KINDS, NAME_CHOICE, PHASE_NAMES, PLAY, REASONS, Refusal, Round

SCENARIO_KEYS = {"name", "rules", "hands", "leader", "revolution", "previous", "steps"}
STEP_KEYS = {
    "play": {"play", "form", "by"},
    "pass": {"pass", "by"},
    "give": {"give", "by"},
    "illegal_give": {"illegal_give", "by", "reason"},
    "illegal": {"illegal", "form", "by", "reason"},
    "legal": {"legal"},
    "expect": {"expect"},
    # House-rule choices (RULES.md section 8).
    "choose": {"choose", "by"},
    "name": {"name", "by"},
    "illegal_choose": {"illegal_choose", "by", "reason"},
    "illegal_name": {"illegal_name", "by", "reason"},
}
EXPECT_KEYS = {
    "to_act",
    "field",
    "revolution",
    "jback",
    "lock",
    "number_lock",
    "hands",
    "counts",
    "out",
    "penalised",
    "over",
    "result",
    "titles",
    "phase",
    "owed",
    "direction",
    "discarded",
}


class ScenarioError(ValueError):
    """The scenario breaks the format (reported as a failure, never raised out of the runner)."""


@dataclass
class ScenarioResult:
    name: str
    ok: bool
    step: int | None = None
    message: str = ""
    rounds: list[Round] = field(default_factory=list)


def lock_text(lock: int) -> str | None:
    """A lock's suit composition as SCENARIOS.md writes it (``"S H"``)."""
    if not lock:
        return None
    return " ".join(SUITS[s] for s in range(4) if lock >> s & 1)


def observed(r: Round, key: str) -> Any:
    """The value of one ``expect`` key in a round."""
    if key == "to_act":
        return r.to_act if r.to_act >= 0 else None
    if key == "field":
        return str(r.top) if r.top is not None else None
    if key == "revolution":
        return r.revolution
    if key == "jback":
        return r.jback
    if key == "lock":
        return lock_text(r.lock)
    if key == "number_lock":
        return r.nlock
    if key == "hands":
        return [format_cards(h) for h in r.hands]
    if key == "counts":
        return list(r.counts())
    if key == "out":
        return list(r.out)
    if key == "penalised":
        return list(r.penalised)
    if key == "over":
        return r.over
    if key == "result":
        return list(r.result) if r.result is not None else None
    if key == "titles":
        titles = r.titles()
        return list(titles) if titles is not None else None
    if key == "phase":
        return PHASE_NAMES[r.phase]
    if key == "owed":
        owed = r.owed_choice() if r.phase == PLAY else None
        if owed is None:
            return None
        return {"by": owed[0], "kind": CHOICE_KINDS[owed[1]], "count": owed[2]}
    if key == "direction":
        return r.direction
    if key == "discarded":
        return format_cards(r.discarded)
    raise ScenarioError(f"unknown expect key {key!r}")


def _canonical_hand(text: Any, jokers: int) -> str:
    if not isinstance(text, str):
        raise ScenarioError("a hand must be a string of cards")
    return format_cards(parse_cards(text, max(jokers, 2)))


def validate(data: Any) -> None:
    """Raise :class:`ScenarioError` when ``data`` breaks the format."""
    if not isinstance(data, Mapping):
        raise ScenarioError("a scenario must be an object")
    unknown = set(data) - SCENARIO_KEYS
    if unknown:
        raise ScenarioError(f"unknown key(s) {sorted(unknown)}")
    for key in ("name", "rules", "hands", "steps"):
        if key not in data:
            raise ScenarioError(f"missing key {key!r}")
    if not isinstance(data["name"], str):
        raise ScenarioError("name must be a string")
    if not isinstance(data["hands"], list) or not 2 <= len(data["hands"]) <= 6:
        raise ScenarioError("hands must list 2 to 6 hands")
    if not all(isinstance(hand, str) for hand in data["hands"]):
        raise ScenarioError("each hand must be a string of cards")
    if not isinstance(data["steps"], list):
        raise ScenarioError("steps must be a list")
    n = len(data["hands"])
    if "leader" in data and data["leader"] is not None:
        if not _is_int(data["leader"]) or not 0 <= data["leader"] < n:
            raise ScenarioError("leader must be a seat")
    if "revolution" in data and not isinstance(data["revolution"], bool):
        raise ScenarioError("revolution must be true or false")
    if "previous" in data and data["previous"] is not None:
        prev = data["previous"]
        if (
            not isinstance(prev, list)
            or not all(_is_int(seat) for seat in prev)
            or sorted(prev) != list(range(n))
        ):
            raise ScenarioError("previous must list every seat once")
    for i, step in enumerate(data["steps"], 1):
        _validate_step(step, i, n)


def _validate_step(step: Any, i: int, n: int) -> None:
    if not isinstance(step, Mapping):
        raise ScenarioError(f"step {i} must be an object")
    kinds = [k for k in STEP_KEYS if k in step]
    if len(kinds) != 1:
        raise ScenarioError(f"step {i} must have exactly one of {sorted(STEP_KEYS)}")
    kind = kinds[0]
    unknown = set(step) - STEP_KEYS[kind]
    if unknown:
        raise ScenarioError(f"step {i}: unknown key(s) {sorted(unknown)}")
    if "by" in step and (not _is_int(step["by"]) or not 0 <= step["by"] < n):
        raise ScenarioError(f"step {i}: by must be a seat")
    if "form" in step and (not isinstance(step["form"], str) or step["form"] not in FORMS):
        raise ScenarioError(f"step {i}: unknown form {step['form']!r}")
    if "reason" in step and (not isinstance(step["reason"], str) or step["reason"] not in REASONS):
        raise ScenarioError(f"step {i}: unknown reason {step['reason']!r}")
    if kind in ("illegal", "illegal_give", "illegal_choose", "illegal_name") and (
        "reason" not in step
    ):
        raise ScenarioError(f"step {i}: {kind} needs a reason")
    try:
        if kind in ("play", "give", "illegal_give", "choose", "illegal_choose"):
            parse_cards(_text(step[kind], i))
        elif kind in ("name", "illegal_name"):
            _text(step[kind], i)
        elif kind == "illegal" and step["illegal"] != "pass":
            parse_cards(_text(step["illegal"], i))
        elif kind == "pass" and step["pass"] is not True:
            raise ScenarioError(f"step {i}: pass must be true")
        elif kind == "legal":
            if not isinstance(step["legal"], list):
                raise ScenarioError(f"step {i}: legal must be a list")
            for text in step["legal"]:
                _move_string_cards(_text(text, i))
        elif kind == "expect":
            expect = step["expect"]
            if not isinstance(expect, Mapping):
                raise ScenarioError(f"step {i}: expect must be an object")
            unknown = set(expect) - EXPECT_KEYS
            if unknown:
                raise ScenarioError(f"step {i}: unknown expect key(s) {sorted(unknown)}")
            if "hands" in expect:
                if not isinstance(expect["hands"], list):
                    raise ScenarioError(f"step {i}: expected hands must be a list")
                for h in expect["hands"]:
                    parse_cards(_text(h, i))
    except CardError as exc:
        raise ScenarioError(f"step {i}: {exc}") from None
    if kind in ("give", "illegal_give") and "by" not in step:
        raise ScenarioError(f"step {i}: {kind} needs by")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, i: int) -> str:
    if not isinstance(value, str):
        raise ScenarioError(f"step {i}: cards must be a string")
    return value


def _move_string_cards(text: str) -> None:
    if text == "pass":
        return
    if text and all(len(t) == 1 and t in RANKS for t in text.split()):
        return  # a bomber's ranks, listed while one is owed
    cards, _, form = text.partition("/")
    if form and form not in FORMS:
        raise ScenarioError(f"unknown form in move string {text!r}")
    parse_cards(cards)


def build_round(data: Mapping[str, Any]) -> Round:
    """The starting round a (validated) scenario describes."""
    try:
        rules = RuleSet.from_json(data["rules"])
    except (RulesError, TypeError) as exc:
        raise ScenarioError(f"rules: {exc}") from None
    try:
        return Round.start(
            rules,
            list(data["hands"]),
            leader=data.get("leader"),
            revolution=bool(data.get("revolution", False)),
            previous=data.get("previous"),
        )
    except (CardError, ValueError) as exc:
        raise ScenarioError(f"hands: {exc}") from None


def apply_step(r: Round, step: Mapping[str, Any]) -> tuple[Round, str | None]:
    """Run one step: ``(next round, None)`` or ``(round, what went wrong)``."""
    by = step.get("by")
    if "play" in step:
        out = r.apply(step["play"], seat=by, form=step.get("form"))
        if isinstance(out, Refusal):
            return r, f"play {step['play']!r} was refused: {out.reason}"
        return out, None
    if "pass" in step:
        out = r.apply("pass", seat=by)
        if isinstance(out, Refusal):
            return r, f"pass was refused: {out.reason}"
        return out, None
    if "give" in step:
        out = r.give(step["by"], step["give"])
        if isinstance(out, Refusal):
            return r, f"give {step['give']!r} was refused: {out.reason}"
        return out, None
    if "illegal_give" in step:
        out = r.give(step["by"], step["illegal_give"])
        if not isinstance(out, Refusal):
            return r, f"give {step['illegal_give']!r} was accepted, expected {step['reason']}"
        if out.reason != step["reason"]:
            return (
                r,
                f"give {step['illegal_give']!r} refused as {out.reason}, expected {step['reason']}",
            )
        return r, None
    if "choose" in step:
        out = r.choose(by, step["choose"])
        if isinstance(out, Refusal):
            return r, f"choose {step['choose']!r} was refused: {out.reason}"
        return out, None
    if "name" in step:
        out = r.name(by, step["name"])
        if isinstance(out, Refusal):
            return r, f"name {step['name']!r} was refused: {out.reason}"
        return out, None
    for kind in ("illegal_choose", "illegal_name"):
        if kind in step:
            text = step[kind]
            out = r.choose(by, text) if kind == "illegal_choose" else r.name(by, text)
            if not isinstance(out, Refusal):
                return r, f"{kind[8:]} {text!r} was accepted, expected {step['reason']}"
            if out.reason != step["reason"]:
                return r, f"{kind[8:]} {text!r} refused as {out.reason}, expected {step['reason']}"
            return r, None
    if "illegal" in step:
        out = r.apply(step["illegal"], seat=by, form=step.get("form"))
        if not isinstance(out, Refusal):
            return r, f"{step['illegal']!r} was accepted, expected {step['reason']}"
        if out.reason != step["reason"]:
            return r, f"{step['illegal']!r} refused as {out.reason}, expected {step['reason']}"
        return r, None
    if "legal" in step:
        got = r.legal_strings()
        if len(set(got)) != len(got):
            return r, f"legal moves listed twice: {sorted(got)}"
        owed = r.owed_choice() if r.phase == PLAY else None
        if owed is not None and owed[1] == NAME_CHOICE:
            want = sorted(" ".join(sorted(t.split(), key=RANKS.index)) for t in step["legal"])
        else:
            want = sorted(_normal_move_string(t) for t in step["legal"])
        if sorted(got) != want:
            missing = sorted(set(want) - set(got))
            extra = sorted(set(got) - set(want))
            return r, f"legal moves differ: missing {missing}, unexpected {extra}"
        return r, None
    expect = step["expect"]
    problems = []
    for key, want in expect.items():
        got_value = observed(r, key)
        if key == "hands":
            want = [_canonical_hand(h, 2) for h in want]
        if got_value != want:
            problems.append(f"{key}: expected {want!r}, got {got_value!r}")
    if problems:
        return r, "; ".join(problems)
    return r, None


def _normal_move_string(text: str) -> str:
    if text == "pass":
        return text
    cards, slash, form = text.partition("/")
    return " ".join(card_codes(parse_cards(cards))) + slash + form


def run_scenario(data: Any) -> ScenarioResult:
    """Validate and run one scenario; never raises for bad input."""
    name = data.get("name", "?") if isinstance(data, Mapping) else "?"
    try:
        validate(data)
        r = build_round(data)
    except ScenarioError as exc:
        return ScenarioResult(str(name), False, None, f"bad scenario: {exc}")
    except (TypeError, ValueError, KeyError) as exc:  # a shape validate() did not foresee
        return ScenarioResult(str(name), False, None, f"bad scenario: {exc!r}")
    rounds = [r]
    for i, step in enumerate(data["steps"], 1):
        try:
            r, problem = apply_step(r, step)
        except (CardError, ValueError, TypeError, KeyError) as exc:
            problem = f"bad step: {exc!r}"
        if problem:
            return ScenarioResult(str(name), False, i, problem, rounds)
        rounds.append(r)
    return ScenarioResult(str(name), True, None, "", rounds)


def load_file(path: Path) -> list[Any]:
    """The scenario objects of one file (raises ScenarioError for bad JSON)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"not valid JSON: {exc}") from None
    if isinstance(data, list):
        return data
    return [data]


def scenario_files(paths: Sequence[str | Path]) -> Iterator[Path]:
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(path.rglob("*.json"))
        else:
            yield path


def run_paths(paths: Sequence[str | Path], out: Any) -> tuple[int, int]:
    """Run every scenario under ``paths``, printing failures to ``out``."""
    passed = failed = 0
    for path in scenario_files(paths):
        try:
            scenarios = load_file(path)
        except ScenarioError as exc:
            failed += 1
            print(f"FAIL {path}: {exc}", file=out)
            continue
        for data in scenarios:
            result = run_scenario(data)
            if result.ok:
                passed += 1
            else:
                failed += 1
                where = f" step {result.step}" if result.step else ""
                print(f"FAIL {path}: {result.name!r}{where}: {result.message}", file=out)
    return passed, failed
