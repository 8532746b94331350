"""The scenario runner (SCENARIOS.md): ``python -m rules_engine scenarios PATH...``."""

import json
import subprocess
import sys

import pytest
from engine_testlib import PROJECT_SCENARIOS, REPO, SHARED_SCENARIOS

from rules_engine.__main__ import main
from rules_engine.scenarios import run_scenario

GOOD = {
    "name": "a single 8 clears the field and its player leads again",
    "rules": {"preset": "standard"},
    "hands": ["S8 H4", "D9 C5", "HK", "C6 D6"],
    "leader": 0,
    "steps": [
        {"legal": ["S8", "H4"]},
        {"play": "S8"},
        {"expect": {"field": None, "to_act": 0}},
        {"illegal": "pass", "reason": "leader_cannot_pass"},
        {"play": "H4"},
        {"expect": {"out": [0], "to_act": 1}},
    ],
}


def scenario(**changes):
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return data


def run(capsys, *paths):
    code = main(["scenarios", *[str(p) for p in paths]])
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    return code, lines


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def scenarios_in(folder):
    total = 0
    for path in sorted(folder.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        total += len(data) if isinstance(data, list) else 1
    return total


# -- good files -------------------------------------------------------------------------------


def test_a_good_scenario_passes(tmp_path, capsys):
    code, lines = run(capsys, write(tmp_path, "good.json", GOOD))
    assert code == 0
    assert lines == ["1 passed, 0 failed"]


def test_a_file_may_hold_a_list_and_folders_are_searched(tmp_path, capsys):
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    write(tmp_path, "a.json", [GOOD, scenario(name="again")])
    write(tmp_path / "sub" / "deeper", "b.json", GOOD)
    write(tmp_path, "notes.txt", "not a scenario")
    code, lines = run(capsys, tmp_path)
    assert code == 0
    assert lines[-1] == "3 passed, 0 failed"


# -- failures are reported, never raised ---------------------------------------------------------


@pytest.mark.parametrize(
    "content, words",
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        (scenario(colour="red"), "unknown key"),
        (scenario(steps=[{"play": "S8", "colour": "red"}]), "unknown key"),
        (scenario(steps=[{"expect": {"colour": "red"}}]), "unknown expect key"),
        (scenario(rules={"preset": "standard", "colour": "red"}), "unknown option"),
        (scenario(rules={"preset": "local"}), "unknown preset"),
        (scenario(hands=["S8 H4", "D9 C5", "HK", "C6 X6"]), "unknown card"),
        (scenario(steps=[{"play": "S1"}]), "unknown card"),
        (scenario(steps=[{"legal": ["S8", "Z4"]}]), "unknown card"),
        (scenario(steps=[{"expect": {"hands": ["S8 H4 H1"]}}]), "unknown card"),
        (scenario(hands=["S8 H4", "D9 C5", "HK S8", "C6 D6"]), "two hands"),
        (scenario(hands=["S8 H4 S8", "D9 C5", "HK", "C6 D6"]), "twice"),
        (scenario(hands=["S8 JK", "D9 JK", "HK", "C6 D6"]), "joker"),
        (scenario(hands=["S8 JK JK JK", "D9", "HK", "C6 D6"]), "joker"),
        (scenario(steps=[{"illegal": "S8"}]), "needs a reason"),
        (scenario(steps=[{"illegal": "S8", "reason": "too_strong"}]), "unknown reason"),
        (scenario(steps=[{"play": "S8", "form": "pair"}]), "unknown form"),
        (scenario(steps=[{"play": "S8", "pass": True}]), "exactly one"),
        (scenario(hands=["S8"]), "2 to 6"),
        (scenario(leader=4), "leader"),
        (scenario(previous=[0, 1, 2]), "previous"),
        ([GOOD, 5], "must be an object"),
    ],
)
def test_a_bad_file_counts_as_failed_with_a_reason(tmp_path, capsys, content, words):
    path = write(tmp_path, "bad.json", content)
    code, lines = run(capsys, path)
    assert code == 1
    assert lines[-1].endswith(" 1 failed")
    failures = [line for line in lines if line.startswith("FAIL")]
    assert len(failures) == 1
    assert str(path) in failures[0]
    assert words in failures[0]


def test_a_missing_file_is_a_failure(tmp_path, capsys):
    code, lines = run(capsys, tmp_path / "nowhere.json")
    assert code == 1
    assert lines[-1] == "0 passed, 1 failed"


def test_bad_files_do_not_stop_the_good_ones(tmp_path, capsys):
    write(tmp_path, "a_bad.json", "[")
    write(tmp_path, "b_good.json", [GOOD, GOOD])
    write(tmp_path, "c_bad.json", scenario(hands=["S8 S8"]))
    code, lines = run(capsys, tmp_path)
    assert code == 1
    assert lines[-1] == "2 passed, 2 failed"


@pytest.mark.parametrize(
    "steps, step_no, words",
    [
        ([{"play": "D9"}], 1, "not_in_hand"),
        ([{"legal": ["S8"]}], 1, "missing []"),
        ([{"play": "S8"}, {"expect": {"to_act": 1}}], 2, "to_act: expected 1, got 0"),
        ([{"illegal": "S8", "reason": "not_stronger"}], 1, "was accepted"),
        ([{"illegal": "pass", "reason": "not_stronger"}], 1, "leader_cannot_pass"),
        ([{"pass": True}], 1, "leader_cannot_pass"),
        ([{"give": "S8", "by": 0}], 1, "wrong_phase"),
    ],
)
def test_a_failing_step_names_file_scenario_step_and_both_sides(
    tmp_path, capsys, steps, step_no, words
):
    path = write(tmp_path, "fails.json", scenario(steps=steps))
    code, lines = run(capsys, path)
    assert code == 1
    assert lines[-1] == "0 passed, 1 failed"
    assert str(path) in lines[0]
    assert GOOD["name"] in lines[0]
    assert f"step {step_no}" in lines[0]
    assert words in lines[0]


# SCENARIOS.md: a file that breaks the format "counts as failed with a message
# saying why; the runner never crashes on it". These shapes make it crash.
CRASHING = [
    pytest.param(scenario(hands=[None, "D9 C5", "HK", "C6 D6"]), id="hand-null"),
    pytest.param(scenario(steps=[{"expect": {"hands": 5}}]), id="expect-hands-number"),
    pytest.param(scenario(steps=[{"play": "S8", "form": ["group"]}]), id="form-list"),
    pytest.param(scenario(previous=[0, 1, 2, "x"]), id="previous-mixed-types"),
]


@pytest.mark.parametrize("content", CRASHING)
def test_malformed_shapes_are_reported_not_raised(tmp_path, capsys, content):
    path = write(tmp_path, "odd.json", content)
    code, lines = run(capsys, path)
    assert code == 1
    assert lines[-1] == "0 passed, 1 failed"
    assert lines[0].startswith(f"FAIL {path}")


def test_a_hand_that_is_not_a_string_is_refused(tmp_path, capsys):
    # 5 is the bit set S3 D3: the runner plays it as if "S3 D3" were written
    path = write(tmp_path, "odd.json", scenario(hands=[5, "D9 C5", "HK", "C6 D6"], steps=[]))
    code, lines = run(capsys, path)
    assert code == 1
    assert lines[-1] == "0 passed, 1 failed"


# -- the public suite and the project's own scenarios, through the command line -------------------


def run_cli(*paths):
    return subprocess.run(
        [sys.executable, "-m", "rules_engine", "scenarios", *[str(p) for p in paths]],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_shared_suite_passes_through_the_command_line():
    assert SHARED_SCENARIOS.is_dir()
    total = scenarios_in(SHARED_SCENARIOS)
    assert total >= 40
    proc = run_cli("../shared/scenarios")
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == f"{total} passed, 0 failed"
    assert proc.stderr == ""


def test_the_projects_own_scenarios_pass_through_the_command_line():
    if not PROJECT_SCENARIOS.is_dir() or not any(PROJECT_SCENARIOS.rglob("*.json")):
        pytest.skip("no scenarios/ folder yet")
    total = scenarios_in(PROJECT_SCENARIOS)
    proc = run_cli("scenarios")
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == f"{total} passed, 0 failed"


def test_the_command_line_exits_1_and_reports_a_bad_file(tmp_path):
    path = write(tmp_path, "bad.json", "{")
    proc = run_cli(SHARED_SCENARIOS, path)
    assert proc.returncode == 1
    last = proc.stdout.strip().splitlines()[-1]
    assert last == f"{scenarios_in(SHARED_SCENARIOS)} passed, 1 failed"
    assert "Traceback" not in proc.stderr


def shared_scenarios():
    for path in sorted(SHARED_SCENARIOS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data if isinstance(data, list) else [data]:
            yield pytest.param(item, id=f"{path.stem}: {item['name'][:60]}")


@pytest.mark.parametrize("data", list(shared_scenarios()))
def test_each_shared_scenario(data):
    result = run_scenario(data)
    assert result.ok, f"step {result.step}: {result.message}"
    assert len(result.rounds) == len(data["steps"]) + 1
