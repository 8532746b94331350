"""The tournament's tally: UECda points, intervals, places by the class brought in."""

from uecda.client import GameRecord
from uecda.tournament import summary


def test_summary_counts_points_places_and_previous_classes():
    records = [
        GameRecord(0, (0, 1, 2, 3, 4), None),
        GameRecord(0, (1, 2, 3, 4, 0), 0),
        GameRecord(0, (1, 0, 2, 3, 4), 4),
        GameRecord(0, (0, 1, 2, 3, 4), 1, rejected=1),
    ]
    s = summary(records, batch=2)
    assert s["games"] == 4
    assert s["mean_points"] == (5 + 1 + 4 + 5) / 4
    assert s["ci95"][0] < s["mean_points"] < s["ci95"][1]
    assert s["batch_means_ci95"] is not None
    assert (s["first"], s["last"]) == (0.5, 0.25)
    assert s["by_previous_place"] == {"none": [1, 5.0], "1": [1, 1.0], "5": [1, 4.0], "2": [1, 5.0]}
    assert s["rejected"] == 1
    assert "move_ms" not in s  # records read from a server's log carry no times


def test_summary_gives_the_decisions_median_and_95th_percentile_times():
    records = [
        GameRecord(0, (0, 1, 2, 3, 4), None, move_ms=tuple(float(t) for t in range(1, 51))),
        GameRecord(0, (0, 1, 2, 3, 4), 0, move_ms=tuple(float(t) for t in range(51, 101))),
    ]
    assert summary(records)["move_ms"] == {"decisions": 100, "p50": 50.0, "p95": 95.0, "max": 100.0}


def test_the_server_gets_the_record_path_and_time_to_write_it(tmp_path, monkeypatch, capsys):
    """``--server-log`` reaches the server as ``-l FILE``, and the script waits for the
    server to finish (it writes its record as the match ends) before stopping it."""
    import json
    import sys

    from uecda import tournament

    server = tmp_path / "out" / "server"
    server.parent.mkdir()
    # A stand-in server: writes its record a moment after the games, then exits.
    server.write_text(
        f"#!{sys.executable}\n"
        "import sys, time\n"
        "time.sleep(1.5)\n"
        "open(sys.argv[sys.argv.index('-l') + 1], 'w').write(' '.join(sys.argv[1:]))\n"
    )
    opponent = tmp_path / "out" / "client"
    opponent.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(30)\n")
    for path in (server, opponent):
        path.chmod(0o755)
    monkeypatch.setattr(
        tournament, "run_client", lambda *a, **k: [GameRecord(0, (0, 1, 2, 3, 4), None)]
    )
    log = tmp_path / "match.dat"
    argv = ["--server", str(server), "--opponent", str(opponent), "--games", "1"]
    assert tournament.main([*argv, "--port", "42999", "--server-log", str(log)]) == 0
    assert log.read_text() == f"-p 42999 -g 1 -l {log}"
    assert json.loads(capsys.readouterr().out)["games"] == 1


def test_another_program_in_the_fifth_seat_is_tallied_from_the_servers_record(
    tmp_path, monkeypatch, capsys
):
    """``--program``: the fifth seat is started like the opponents (named ``program``), and
    its games are read from the server's record once the match ends; the first game of each
    hundred has no classes coming in (the server resets them)."""
    import json
    import sys

    from uecda import tournament

    record = "player o1 o2 o3 o4 program\n" + "".join(
        f"/*\nclass 0 1 2 3 4\nresult {' '.join(map(str, r))}\n*/\n"
        for r in ([4, 3, 2, 1, 0], [0, 1, 2, 3, 4], [1, 2, 3, 4, 2])
    )
    server = tmp_path / "out" / "server"
    server.parent.mkdir()
    server.write_text(
        f"#!{sys.executable}\n"
        "import sys, time\n"
        "time.sleep(1.0)\n"
        f"open(sys.argv[sys.argv.index('-l') + 1], 'w').write({record!r})\n"
    )
    client = tmp_path / "out" / "client"
    client.write_text(f"#!{sys.executable}\nimport sys\nprint(' '.join(sys.argv[1:]))\n")
    for path in (server, client):
        path.chmod(0o755)
    monkeypatch.setattr(tournament, "run_client", lambda *a, **k: 1 / 0)  # never this client
    argv = ["--server", str(server), "--opponent", str(client), "--program", str(client)]
    assert tournament.main([*argv, "--games", "3", "--port", "42998"]) == 0
    tally = json.loads(capsys.readouterr().out)
    assert tally["games"] == 3
    # Places 1, 5 and 3 (classes 0, 4 and 2): 5 + 1 + 3 points.
    assert tally["mean_points"] == 3.0
    assert (tally["first"], tally["last"]) == (0.333, 0.333)
    assert tally["by_previous_place"] == {"none": [1, 5.0], "5": [2, 2.0]}
    assert (tmp_path / "tournament.dat").exists()


def test_pool_reads_several_runs_records_as_one_measurement(tmp_path, capsys):
    """``pool``: every run's games together, each run's mean, and batches cut within runs
    (a batch of the first run's last game and the second's first would hide the runs'
    difference)."""
    import json

    from uecda import tournament

    def record(results):
        return "player o1 o2 o3 o4 program\n" + "".join(
            f"/*\nclass 0 1 2 3 4\nresult {' '.join(map(str, r))}\n*/\n" for r in results
        )

    first, last = [4, 3, 2, 1, 0], [0, 1, 2, 3, 4]  # the program's result: 0 is the first place
    (tmp_path / "a.dat").write_text(record([first, first, first]))
    (tmp_path / "b.dat").write_text(record([last, last, last]))
    argv = ["pool", "--name", "program", "--batch", "2"]
    assert tournament.main([*argv, str(tmp_path / "a.dat"), str(tmp_path / "b.dat")]) == 0
    s = json.loads(capsys.readouterr().out)
    assert (s["games"], s["mean_points"], s["runs"]) == (6, 3.0, [5.0, 1.0])
    assert (s["first"], s["last"]) == (0.5, 0.5)
    # Two batches (one a run; the third game of each run is left over): 5 and 1.
    assert s["batch_means_ci95"] == [round(3 - 1.959964 * 2, 3), round(3 + 1.959964 * 2, 3)]


def test_transitions_count_each_class_brought_in_against_the_place_finished(tmp_path, capsys):
    """``transitions``: rows by the class a player brought in, columns by its place; the
    first game of every hundred (the server's reset: no exchange) counts for nothing."""
    from uecda import tournament

    def block(classes, result):
        return f"/*\nclass {' '.join(map(str, classes))}\nresult {' '.join(map(str, result))}\n*/\n"

    same, turned = [0, 1, 2, 3, 4], [4, 3, 2, 1, 0]
    # 101 games: the first is a reset; then 99 games where every class keeps its place,
    # then the 101st game (index 100) is a reset again, whatever it shows.
    text = block(same, turned) + block(same, same) * 99 + block(same, turned)
    counts = tournament.class_transitions([text])
    assert counts == [[99 if c == p else 0 for p in range(5)] for c in range(5)]
    (tmp_path / "a.dat").write_text(text + block(same, turned))  # game 101 counts: turned
    assert tournament.main(["transitions", str(tmp_path / "a.dat")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("# 500 games")
    assert out[1] == "(0.9900, 0.0000, 0.0000, 0.0000, 0.0100),  # 100"
