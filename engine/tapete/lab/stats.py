"""The numbers of a lab run, from its game records; and the table both the command line and the
page print (the page shows ``table_cells`` as they are, so both print the same text).

Glossary:

summary     a JSON-ready dict of the run's numbers plus ``histograms`` for the page's charts
round score what the round's best-scoring seat gained in it (differences, undercut points and
            the go-out bonus; the end-of-game bonuses are not part of any round)
histogram   {bin: count}: bins are the lower edges (``"5"`` holds 5 to 9.99 for width 5),
            written as text and sorted by value

The summary is computed from a tally (:mod:`tapete.lab.tally`) with exact fractions, so it
depends only on the set of games counted: the same whichever chunks they were played in.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .records import GameRecord
from .tally import Tally, tally_of

# (summary key, row title, kind): the rows of the table, in order
ROWS: tuple[tuple[str, str, str], ...] = (
    ("games", "games played", "int"),
    ("games_by_players", "games per player count", "players"),
    ("rounds_per_game", "rounds per game (mean)", "num"),
    ("rounds_range", "rounds per game (min-max)", "range"),
    ("turns_per_round", "turns per round (mean)", "num"),
    ("end_close", "rounds ended by closing", "pct"),
    ("end_out", "rounds ended by going out", "pct"),
    ("end_stock", "rounds ended by an empty stock", "pct"),
    ("closer_wins", "closer wins the round (of closes)", "pct"),
    ("undercut", "closer undercut (of closes)", "pct"),
    ("round_score", "round score of the round's best (mean)", "num"),
    ("winner_score", "winner's final score (mean)", "num"),
    ("loser_score", "last player's final score (mean)", "num"),
    ("score_gap", "gap first-last (mean)", "num"),
    ("score_sd", "spread of final scores (sd)", "num"),
    ("drawn_games", "drawn games", "pct"),
)


def share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


Pairs = list[tuple[Fraction, int]]


def mean(pairs: Pairs) -> float | None:
    total = sum(n for _, n in pairs)
    return float(sum(v * n for v, n in pairs) / total) if total else None


def spread(pairs: Pairs) -> float | None:
    """The population standard deviation (exact up to the final square root)."""
    total = sum(n for _, n in pairs)
    if total < 2:
        return None
    middle = sum(v * n for v, n in pairs) / total
    return math.sqrt(sum(n * (v - middle) ** 2 for v, n in pairs) / total)


def histogram(pairs: Pairs, width: int = 1) -> dict[str, int]:
    counts: Counter[int] = Counter()
    for value, n in pairs:
        counts[math.floor(value / width) * width] += n
    return {str(k): counts[k] for k in sorted(counts)}


def summarize(records: Iterable[GameRecord]) -> dict[str, Any]:
    return summary_of(tally_of(records))


def summary_of(tally: Tally) -> dict[str, Any]:
    count = tally.counts
    ends = tally.counters["ends"]
    rounds = sum(ends.values())
    per_game = tally.numbers("rounds_per_game")
    return {
        "games": count["games"],
        "finished": count["finished"],
        "games_by_players": {
            str(k): n for k, n in sorted((int(k), n) for k, n in tally.counters["players"].items())
        },
        "rounds": rounds,
        "rounds_per_game": mean(per_game),
        "rounds_per_game_min": int(per_game[0][0]) if per_game else None,
        "rounds_per_game_max": int(per_game[-1][0]) if per_game else None,
        "turns_per_round": mean(tally.numbers("turns")),
        "end_close": share(ends["close"], rounds),
        "end_out": share(ends["out"], rounds),
        "end_stock": share(ends["stock"], rounds),
        "closer_wins": share(count["closer_won"], count["closes"]),
        "undercut": share(count["undercut"], count["closes"]),
        "round_score": mean(tally.numbers("round_score")),
        "winner_score": mean(tally.numbers("best")),
        "loser_score": mean(tally.numbers("worst")),
        "score_gap": mean(tally.numbers("gap")),
        "score_sd": spread(tally.numbers("finals")),
        "drawn_games": share(count["drawn"], count["finished"]),
        "histograms": {
            "rounds_per_game": histogram(per_game),
            "turns_per_round": histogram(tally.numbers("turns")),
            "round_score": histogram(tally.numbers("round_score"), 5),
            "final_score": histogram(tally.numbers("finals"), 5),
        },
    }


def cell(summary: Mapping[str, Any], key: str, kind: str) -> str:
    """One cell of the table as text (``-`` when there is nothing to count)."""
    if kind == "range":
        low, high = summary["rounds_per_game_min"], summary["rounds_per_game_max"]
        return "-" if low is None else f"{low}-{high}"
    value = summary.get(key)
    if value is None:
        return "-"
    if kind == "players":
        return ", ".join(f"{n}p: {c}" for n, c in value.items()) or "-"
    if kind == "pct":
        return f"{100 * value:.1f}%"
    if kind == "num":
        return f"{value:.2f}"
    return str(value)


def table_cells(summary: Mapping[str, Any]) -> dict[str, str]:
    """{row key: text} for every row of the table."""
    return {key: cell(summary, key, kind) for key, _, kind in ROWS}


def markdown(heads: Sequence[str], summaries: Sequence[Mapping[str, Any]]) -> list[str]:
    """The side-by-side table of one or more summaries, as markdown lines."""
    columns = [table_cells(s) for s in summaries]
    lines = ["| | " + " | ".join(heads) + " |", "|---" * (len(heads) + 1) + "|"]
    for key, title, _ in ROWS:
        lines.append(f"| {title} | " + " | ".join(c[key] for c in columns) + " |")
    return lines
