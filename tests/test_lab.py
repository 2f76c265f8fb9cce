"""The playtest lab: reproducible runs, chunks, progress and stopping, the table, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tapete.api import handle
from tapete.errors import BadRequestError
from tapete.lab import LabConfig, main, markdown, run
from tapete.lab.stats import ROWS

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def numbers(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k != "seconds"}


def call(op: str, **fields: Any) -> Any:
    """One request through the api, as the worker makes it; the result, or the error."""
    answer = json.loads(handle(json.dumps({"op": op, **fields})))
    return answer["result"] if answer["ok"] else answer["error"]


def page_run(config: dict[str, Any], chunks: list[int]) -> dict[str, Any]:
    """A run as the page makes it: chunks of the given sizes (the last one repeated), each
    sending the tally so far; the last answer has the numbers."""
    answer: dict[str, Any] = {"tally": None}
    sizes, size, done = iter(chunks), chunks[0], 0
    while done < config["games"]:
        size = next(sizes, size)
        answer = call("lab", config=config, start=done, count=size, tally=answer["tally"])
        assert answer["start"] == done, answer
        done += len(answer["records"])
    return {k: answer[k] for k in ("tally", "summary", "cells")}


def test_runs_are_reproducible_and_chunks_add_up() -> None:
    config = LabConfig.make(players=(2, 3), games=6, seed="REPRO", options={"hand_size": 10})
    first, second = run(config), run(config)
    assert numbers(first.summary()) == numbers(second.summary())
    assert [r.to_json() for r in first.records] == [r.to_json() for r in second.records]
    chunks = run(config, start=0, count=4).records + run(config, start=4, count=10).records
    assert [r.to_json() for r in chunks] == [r.to_json() for r in first.records]
    summary = first.summary()
    assert summary["games"] == 6 and summary["games_by_players"] == {"2": 3, "3": 3}
    ends = summary["end_close"] + summary["end_out"] + summary["end_stock"]
    assert abs(ends - 1) < 1e-9 and summary["rounds_per_game"] >= 1
    json.dumps(summary)


def test_progress_and_stop() -> None:
    config = LabConfig.make(games=5, seed="STOP")
    seen: list[tuple[int, int]] = []
    result = run(
        config, progress=lambda d, t: seen.append((d, t)), should_stop=lambda: len(seen) >= 2
    )
    assert seen == [(1, 5), (2, 5)] and result.stopped and len(result.records) == 2
    assert "stopped early" in markdown([result])


def test_markdown_side_by_side() -> None:
    a = run(LabConfig.make(games=3, seed="MD"))
    b = run(LabConfig.make(games=3, seed="MD", options={"close_threshold": 5}))
    table = markdown([a, b])
    assert table.startswith("| | A: defaults | B: close_threshold=5 |")
    for title in (
        "rounds per game",
        "turns per round",
        "closing",
        "going out",
        "empty stock",
        "closer wins",
        "undercut",
        "games per player count",
    ):
        assert title in table


def test_config_json_and_bad_settings() -> None:
    config = LabConfig.make(
        players=3, games=4, seed="J", options={"max_group_size": "5"}, levels=("easy", "normal")
    )
    assert LabConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
    assert config.option == {"max_group_size": 5}
    for bad in (
        {"players": 4},
        {"games": 0},
        {"options": {"hand_size": 9}},
        {"levels": ["godlike"]},
        {"seed": "x" * 30},
        {"game": "chess"},
    ):
        with pytest.raises(Exception) as info:
            LabConfig.make(**bad)
        assert getattr(info.value, "code", None) in ("bad_option", "unknown_game")
    with pytest.raises(BadRequestError):
        LabConfig.from_json("nope")


def test_lab_op_chunks_add_up_to_the_same_numbers() -> None:
    config = {"games": 7, "seed": "CH", "players": [2, 3], "options": {"close_threshold": 5}}
    one = page_run(config, [7])
    assert one == page_run(config, [1]) == page_run(config, [3, 2, 1, 5])
    assert one["tally"]["spans"] == [[0, 7]]
    assert one["summary"]["games"] == 7 and one["summary"]["games_by_players"] == {"2": 4, "3": 3}
    assert list(one["cells"]) == [key for key, _, _ in ROWS]
    direct = run(LabConfig.from_json(config))
    assert one["summary"] == direct.summary()
    # chunks played in another order, and their records summed up instead of their tallies
    late = call("lab", config=config, start=4, count=100)  # clipped at the end of the run
    early = call("lab", config=config, start=0, count=4)
    assert [r["index"] for r in late["records"]] == [4, 5, 6]
    assert call("lab_summary", tallies=[late["tally"], early["tally"]]) == one
    assert call("lab_summary", records=early["records"], tallies=[late["tally"]]) == one
    # records alone do not say which setting they were played under
    alone = call("lab_summary", records=late["records"] + early["records"])
    assert alone["tally"]["setting"] == ""
    assert {**alone["tally"], "setting": one["tally"]["setting"]} == one["tally"]
    assert {k: alone[k] for k in ("summary", "cells")} == {k: one[k] for k in ("summary", "cells")}
    twice = call("lab_summary", tallies=[early["tally"], one["tally"]])
    assert twice["code"] == "bad_request" and "twice" in twice["message"]


def test_a_tally_is_never_added_to_another_settings_games() -> None:
    config = {"games": 4, "seed": "SET", "players": [2]}
    first = call("lab", config=config, start=0, count=2)
    assert len(first["tally"]["setting"]) == 32
    others = ({**config, "seed": "SET2"}, {**config, "games": 5}, {**config, "levels": ["easy"]})
    for other in others:
        error = call("lab", config=other, start=2, count=2, tally=first["tally"])
        assert error["code"] == "bad_request" and "another setting" in error["message"], other
        late = call("lab", config=other, start=2, count=2)
        mixed = call("lab_summary", tallies=[first["tally"], late["tally"]])
        assert mixed["code"] == "bad_request" and "different settings" in mixed["message"]
    rest = call("lab", config=config, start=2, count=2, tally=first["tally"])
    assert rest["tally"]["setting"] == first["tally"]["setting"]
    forged = {**first["tally"], "setting": 7}
    assert call("lab_summary", tallies=[forged])["code"] == "bad_request"


def test_lab_op_is_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["willie", "--players", "2,3", "--games", "5", "--seed", "SAME", "--levels", "easy"]
    argv += ["--set", "hand_size=10", "--vs", "max_group_size=5", "--quiet"]
    assert main([*argv, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    table = capsys.readouterr().out
    a = {"games": 5, "seed": "SAME", "players": [2, 3], "levels": ["easy"]}
    b = {**a, "options": {"hand_size": 10, "max_group_size": 5}}
    a["options"] = {"hand_size": 10}
    for config, cli in zip((a, b), printed, strict=True):
        page = page_run(config, [2])
        assert (
            page["summary"] == cli["summary"]
            and cli["config"] == call("lab", config=config, start=0, count=1)["config"]
        )
    rows = [page_run(c, [3])["cells"] for c in (a, b)]
    for key, title, _ in ROWS:
        assert f"| {title} | {rows[0][key]} | {rows[1][key]} |" in table


def test_lab_op_bad_input() -> None:
    good = {"games": 3, "seed": "BAD"}
    for config in (
        {**good, "options": {"hand_size": 9}},
        {**good, "options": {"no_such_knob": 1}},
        {**good, "options": {"max_group_size": "many"}},
        {**good, "players": [4]},
        {**good, "levels": ["godlike"]},
        {**good, "seed": "no spaces"},
        {**good, "games": 0},
        {**good, "players": None},
        {**good, "players": []},
        {**good, "players": "2"},
        {**good, "levels": 5},
        {**good, "levels": ["normal"] * 7},
    ):
        assert call("lab", config=config, start=0, count=1)["code"] == "bad_option", config
    for shape in ("willie", None, {**good, "gmaes": 3}):
        assert call("lab", config=shape, start=0, count=1)["code"] == "bad_request", shape
    assert call("lab", config={**good, "game": "chess"}, start=0, count=1)["code"] == (
        "unknown_game"
    )
    for start, count in ((-1, 1), (3, 1), (0, 0), (0, 10**6), ("0", 1), (0, True), (None, 1)):
        error = call("lab", config=good, start=start, count=count)
        assert error["code"] == "bad_request", (start, count)
    first = call("lab", config=good, start=0, count=1)
    assert call("lab", config=good, start=0, count=1, tally=first["tally"])["code"] == (
        "bad_request"
    )  # game 0 again
    record, tally = first["records"][0], first["tally"]
    for records in (
        "nope",
        [record, record],
        [{**record, "players": 0}],
        [{**record, "rounds": [["close", 1, None, False]]}],
        [{**record, "rounds": [["close", -1, None, False, [0, 0]]]}],
        [{**record, "scores": [1]}],
        [{**record, "scores": [float("nan"), 1]}],
        [{**record, "winners": [5]}],
        [{**record, "finished": "yes"}],
        [{k: v for k, v in record.items() if k != "index"}],
    ):
        answer = json.loads(handle(json.dumps({"op": "lab_summary", "records": records})))
        assert answer["error"]["code"] == "bad_request", records
    counters = tally["counters"]
    for bad in (
        "nope",
        {**tally, "spans": [[3, 1]]},
        {**tally, "spans": [[0, 2], [1, 3]]},
        {**tally, "counts": {**tally["counts"], "games": -1}},
        {**tally, "counts": {**tally["counts"], "closes": 1.5}},
        {**tally, "counters": {**counters, "turns": {"x": 1}}},
        {**tally, "counters": {**counters, "finals": {"1.0": 1}}},
        {**tally, "counters": {**counters, "finals": {"nan": 1}}},
        {**tally, "counters": {**counters, "gap": {"5": True}}},
        {k: v for k, v in tally.items() if k != "counters"},
    ):
        answer = json.loads(handle(json.dumps({"op": "lab_summary", "tallies": [bad]})))
        assert answer["error"]["code"] == "bad_request", bad
        error = call("lab", config=good, start=1, count=1, tally=bad)
        assert error["code"] == "bad_request", bad


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "willie",
            "--players",
            "2",
            "--games",
            "3",
            "--seed",
            "CLI",
            "--set",
            "hand_size=10",
            "--vs",
            "close_threshold=5",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "| | A: hand_size=10 | B: close_threshold=5, hand_size=10 |" in out
    assert main(["willie", "--set", "hand_size=9", "--quiet"]) == 2
    assert main(["willie", "--set", "oops", "--quiet"]) == 2


def test_python_dash_m() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tapete.lab",
            "willie",
            "--games",
            "2",
            "--seed",
            "M",
            "--json",
            "--quiet",
        ],
        cwd=ENGINE,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["summary"]["games"] == 2
