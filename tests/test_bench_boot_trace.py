"""The start-up bench's trace summaries (bench/bench_boot.py ``--trace``, ``--trace-first``):
time by event name on one thread, and the page's longer main-thread tasks in order with what
took most of each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import helpers

boot = helpers.load_bench("bench_boot")

TASK = "ThreadControllerImpl::RunTask"


def event(name: str, tid: int, ts_ms: float, dur_ms: float) -> dict[str, Any]:
    return {"ph": "X", "name": name, "pid": 1, "tid": tid, "ts": ts_ms * 1000, "dur": dur_ms * 1000}


def thread(tid: int, name: str) -> dict[str, Any]:
    return {"ph": "M", "name": "thread_name", "pid": 1, "tid": tid, "args": {"name": name}}


def write_trace(path: Path) -> Path:
    events = [
        thread(1, boot.PAGE_THREAD),
        thread(2, boot.WORKER_THREAD),
        event(TASK, 1, 100.0, 2.0),  # short: not listed
        event(TASK, 1, 110.0, 40.0),
        event("v8.evaluateModule", 1, 111.0, 30.0),  # most of the task
        event("V8.PreParse", 1, 112.0, 1.0),  # too small to name
        event(TASK, 1, 160.0, 10.0),
        event("UpdateLifecycle", 1, 161.0, 8.0),
        event(TASK, 2, 105.0, 500.0),  # the worker's: not the page's
        event("wasm.CompileLazy", 2, 106.0, 3.0),
        event("wasm.CompileLazy", 2, 120.0, 2.0),
    ]
    path.write_text(json.dumps({"traceEvents": events}), encoding="utf-8")
    return path


def test_thread_time_sums_each_event_name_on_one_thread(tmp_path: Path) -> None:
    trace = write_trace(tmp_path / "trace.json")
    worker = boot.thread_time(trace)
    assert worker[0].split() == ["500.0", "ms", "x1", TASK]
    assert worker[1].split() == ["5.0", "ms", "x2", "wasm.CompileLazy"]
    page = boot.thread_time(trace, boot.PAGE_THREAD)
    assert page[0].split() == ["52.0", "ms", "x3", TASK]


def test_page_tasks_lists_the_longer_tasks_in_order(tmp_path: Path) -> None:
    lines = boot.page_tasks(write_trace(tmp_path / "trace.json"))
    assert lines == [
        "   10.0 ms   40.0 ms  v8.evaluateModule 30.0",
        "   60.0 ms   10.0 ms  UpdateLifecycle 8.0",
        "all the page's main-thread tasks: 52.0 ms",
    ]
