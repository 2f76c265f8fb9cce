"""The playtest lab: reproducible runs, chunks, progress and stopping, the table, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tapete.errors import BadOptionError
from tapete.lab import LabConfig, lab_request, main, markdown, run, summarize_records

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def numbers(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k != "seconds"}


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
    with pytest.raises(BadOptionError):
        LabConfig.from_json("nope")


def test_lab_request_for_the_worker() -> None:
    request = {"config": {"games": 4, "seed": "WK", "players": [2]}, "start": 1, "count": 2}
    answer = lab_request(request)
    assert [r["index"] for r in answer["records"]] == [1, 2]
    assert numbers(summarize_records(answer["records"])) == numbers(answer["summary"])
    json.dumps(answer)


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
