"""The fuzz campaign: many hostile requests per game to ``tapete.api.handle`` (bench/fuzzlib.py
makes them), each judged, timed and weighed.

    python3 bench/fuzz_api.py --requests 100000 [--games wizard,lobo] [--seed FUZZ]
                              [--out bench/results/fuzz.jsonl] [--first N]

Resumable: the requests run in blocks of ``--block``; each finished block is one JSON line of
``--out`` (its counts, the dearest request of each op, its findings), and a run started again
skips the blocks already there. Request ``i`` of a game depends on (seed, game, i) alone, so a
finding is made again with ``--show GAME:INDEX`` (prints the request text).

Each block runs in a worker process of its own. Per request it measures the CPU time
(``time.process_time``) and the peak memory (the rise of the process's high-water mark,
``ru_maxrss``; the worker starts afresh after any request that raised it by more than 32 MB,
so each heavy request is weighed from a low mark). A request that has not answered after
``--timeout`` seconds is killed and counted as a finding. Targets (issue 14): no ``internal``,
no exception escaping ``handle``, no answer ``JSON.parse`` refuses, no request over 2 s of
CPU or 300 MB.

A timeout is wall-clock time, which a loaded machine stretches (a campaign under ``nice``
beside a test suite gets a small share of a core). ``--recheck`` runs each timed-out request
of ``--out`` again, alone in a fresh worker with ``--recheck-timeout`` seconds, weighed like
the others, and keeps the results in ``<out>.recheck``; the summary counts a timeout as
cleared only when its re-run answered within the CPU and memory targets.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import resource
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

import fuzzlib  # noqa: E402

CPU_LIMIT = 2.0
MEMORY_LIMIT_MB = 300
RESTART_GROWTH_KB = 32 * 1024


def _maxrss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _worker(game: str, indices: list[int], seed: str, deals: int, out: Any) -> None:
    """Run requests ``indices`` of ``game``, sending (index, family, op, verdict, code, cpu,
    memory_mb) per request; stops early (the parent restarts it) after a big memory rise."""
    corpus = fuzzlib.Corpus.load_or_make(game, deals)
    generator = fuzzlib.Generator(corpus, seed)
    for index in indices:
        family, op, text = generator.text(game, index)
        before = _maxrss_kb()
        began = time.process_time()
        verdict, code = fuzzlib.judge(text)
        cpu = time.process_time() - began
        grew = _maxrss_kb() - before
        out.put((index, family, op, verdict, code, cpu, grew / 1024))
        if grew > RESTART_GROWTH_KB:
            out.put("restart")  # the parent starts a fresh worker for the rest
            return
    out.put(None)


def run_block(game: str, start: int, count: int, args: argparse.Namespace) -> dict[str, Any]:
    todo = list(range(start, start + count))
    counts: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    ops: dict[str, dict[str, Any]] = {}
    findings: list[dict[str, Any]] = []
    while todo:
        queue: Any = mp.Queue()
        process = mp.Process(target=_worker, args=(game, todo, args.seed, args.deals, queue))
        process.start()
        finished = False
        while todo:
            try:
                item = queue.get(timeout=args.timeout)
            except Exception:  # no answer in time: the request at todo[0] hangs
                process.kill()
                index = todo.pop(0)
                counts["timeout"] += 1
                findings.append({"index": index, "verdict": "timeout", "game": game})
                break
            if item is None:
                finished = True
                break
            if item == "restart":
                break
            index, family, op, verdict, code, cpu, memory = item
            todo.remove(index)
            counts[verdict] += 1
            codes[code if verdict == "error" else verdict] += 1
            entry = ops.setdefault(
                op, {"n": 0, "cpu": 0.0, "cpu_at": None, "mb": 0.0, "mb_at": None}
            )
            entry["n"] += 1
            if cpu > entry["cpu"]:
                entry["cpu"], entry["cpu_at"] = round(cpu, 3), index
            if memory > entry["mb"]:
                entry["mb"], entry["mb_at"] = round(memory, 1), index
            bad = verdict in ("internal", "escaped", "invalid_json")
            if bad or cpu > CPU_LIMIT or memory > MEMORY_LIMIT_MB:
                findings.append(
                    {
                        "index": index,
                        "family": family,
                        "op": op,
                        "verdict": verdict,
                        "code": code,
                        "cpu": round(cpu, 3),
                        "mb": round(memory, 1),
                    }
                )
        process.join(timeout=10)
        if process.is_alive():
            process.kill()
        if finished:
            break
    return {
        "game": game,
        "start": start,
        "count": count,
        "verdicts": dict(counts),
        "codes": dict(codes),
        "ops": ops,
        "findings": findings,
    }


def timeouts(lines: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """Every (game, index) that timed out in ``lines``."""
    return [
        (line["game"], finding["index"])
        for line in lines
        for finding in line["findings"]
        if finding["verdict"] == "timeout"
    ]


def recheck(lines: list[dict[str, Any]], path: Path, args: argparse.Namespace) -> None:
    """Run each timed-out request again alone (resumable: ``path`` keeps the re-runs)."""
    done = {(r["game"], r["start"]) for r in read_lines(path)}
    alone = argparse.Namespace(**{**vars(args), "timeout": args.recheck_timeout})
    for game, index in timeouts(lines):
        if (game, index) in done:
            continue
        line = run_block(game, index, 1, alone)
        line["seed"] = args.seed
        with path.open("a") as f:
            f.write(json.dumps(line) + "\n")
        print(f"{game} {index} again: {line['verdicts']} {line['ops']}", file=sys.stderr)


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def recheck_summary(lines: list[dict[str, Any]], rechecks: list[dict[str, Any]]) -> str:
    """What the re-runs of the timed-out requests found."""
    wanted = set(timeouts(lines))
    if not wanted:
        return ""
    again = {(r["game"], r["start"]): r for r in rechecks if (r["game"], r["start"]) in wanted}
    cleared = [r for r in again.values() if not r["findings"]]
    worst_cpu = max((e["cpu"] for r in cleared for e in r["ops"].values()), default=0.0)
    worst_mb = max((e["mb"] for r in cleared for e in r["ops"].values()), default=0.0)
    return (
        f"Timeouts (wall clock, {len(wanted)}): {len(again)} run again alone, {len(cleared)} "
        f"answered within the targets (worst {worst_cpu:.3f} s CPU, {worst_mb:.1f} MB), "
        f"{len(again) - len(cleared)} still findings, {len(wanted) - len(again)} not run again."
    )


def summarize(lines: list[dict[str, Any]]) -> str:
    out = [
        "| game | requests | ok | coded errors | internal | escaped | invalid JSON | "
        "timeouts | over 2 s | over 300 MB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    worst: dict[tuple[str, str], dict[str, Any]] = {}
    codes: Counter[str] = Counter()
    for game in fuzzlib.GAMES:
        mine = [line for line in lines if line["game"] == game]
        if not mine:
            continue
        verdicts: Counter[str] = Counter()
        slow = heavy = 0
        for line in mine:
            verdicts.update(line["verdicts"])
            codes.update(line["codes"])
            slow += sum(1 for f in line["findings"] if f.get("cpu", 0) > CPU_LIMIT)
            heavy += sum(1 for f in line["findings"] if f.get("mb", 0) > MEMORY_LIMIT_MB)
            for op, entry in line["ops"].items():
                w = worst.setdefault((game, op), {"n": 0, "cpu": 0.0, "mb": 0.0})
                w["n"] += entry["n"]
                if entry["cpu"] >= w["cpu"]:
                    w["cpu"], w["cpu_at"] = entry["cpu"], entry["cpu_at"]
                if entry["mb"] >= w["mb"]:
                    w["mb"], w["mb_at"] = entry["mb"], entry["mb_at"]
        total = sum(verdicts.values())
        out.append(
            f"| {game} | {total:,} | {verdicts['ok']:,} | {verdicts['error']:,} | "
            f"{verdicts['internal']} | {verdicts['escaped']} | {verdicts['invalid_json']} | "
            f"{verdicts['timeout']} | {slow} | {heavy} |"
        )
    out += [
        "",
        "Answers by code: " + ", ".join(f"{k or 'ok'} {v:,}" for k, v in codes.most_common()),
        "",
    ]
    out += [
        "| game | op | requests | worst CPU s (request) | worst memory MB (request) |",
        "|---|---|---:|---:|---:|",
    ]
    for (game, op), w in sorted(worst.items()):
        out.append(
            f"| {game} | {op} | {w['n']:,} | {w['cpu']:.3f} ({w.get('cpu_at')}) | "
            f"{w['mb']:.1f} ({w.get('mb_at')}) |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100_000, help="per game")
    parser.add_argument("--games", default=",".join(fuzzlib.GAMES))
    parser.add_argument("--seed", default="FUZZ")
    parser.add_argument("--deals", type=int, default=6, help="corpus playouts per game")
    parser.add_argument("--block", type=int, default=1000)
    parser.add_argument(
        "--first", type=int, default=0, help="the first request (to split a game over processes)"
    )
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "fuzz.jsonl"))
    parser.add_argument("--summary", action="store_true", help="only print the summary of --out")
    parser.add_argument("--show", help="GAME:INDEX: print that request's text and stop")
    parser.add_argument(
        "--recheck", action="store_true", help="run each timed-out request of --out again, alone"
    )
    parser.add_argument("--recheck-timeout", type=float, default=600.0)
    args = parser.parse_args(argv)
    if args.show:
        game, _, index = args.show.partition(":")
        corpus = fuzzlib.Corpus.load_or_make(game, args.deals)
        print(fuzzlib.Generator(corpus, args.seed).text(game, int(index))[2])
        return 0
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = read_lines(out)
    rechecked = out.with_name(out.name + ".recheck")
    if args.recheck:
        recheck([line for line in lines if line.get("seed") == args.seed], rechecked, args)
        args.summary = True
    done = {(line["game"], line["start"]) for line in lines if line.get("seed") == args.seed}
    if not args.summary:
        for game in args.games.split(","):
            for start in range(args.first, args.requests, args.block):
                if (game, start) in done:
                    continue
                began = time.time()
                line = run_block(game, start, min(args.block, args.requests - start), args)
                line["seed"] = args.seed
                lines.append(line)
                with out.open("a") as f:
                    f.write(json.dumps(line) + "\n")
                found = len(line["findings"])
                print(
                    f"{game} {start}: {time.time() - began:.0f} s, {found} findings",
                    file=sys.stderr,
                    flush=True,
                )
    mine = [line for line in lines if line.get("seed") == args.seed]
    print(summarize(mine))
    print("\n" + recheck_summary(mine, read_lines(rechecked)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
