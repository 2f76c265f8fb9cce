"""Willie's round and game scoring (SPEC.md 1.3 "Round scoring", "End of game"; W-15..W-21).

Glossary:

t_i          the hand points of seat i when the round ends
winners      the seats with the lowest t; if the closer ties others, the others win instead
             (W-17); with no closer (empty stock) every tied seat wins (W-18)
difference   a winner's sum of (t_j - lowest) over the non-winners, times the multiplier
multiplier   ``two_player_multiplier`` (2) with two players, 1 with three
undercut     the round had a closer who is not a winner; ``undercut_mode`` says who gets
             ``undercut_points`` (5): LITERAL_WINNER_MINUS_5 -5 to each winner (the seed's text,
             the default), WINNER_PLUS_5 +5 to each winner (Carousel), CLOSER_MINUS_5 -5 to the
             closer
go-out bonus ``go_out_bonus`` (5) for a winner whose hand is empty (W-15)
end bonuses  once a total reaches ``target_score``: ``end_bonus`` (10) to each seat at or over
             it, ``round_win_bonus`` (5) per round won to every other seat (W-20)

Seats outside the winners score 0 for the round; totals may go negative (W-21).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LITERAL = "LITERAL_WINNER_MINUS_5"
WINNER_PLUS = "WINNER_PLUS_5"
CLOSER_MINUS = "CLOSER_MINUS_5"
UNDERCUT_MODES = (LITERAL, WINNER_PLUS, CLOSER_MINUS)


@dataclass(frozen=True)
class RoundScore:
    """How one round scored, step by step (what the round-end sheet explains)."""

    winners: tuple[int, ...]
    undercut: bool
    multiplier: int
    differences: tuple[int, ...]
    adjustments: tuple[int, ...]
    out_bonus: tuple[int, ...]

    @property
    def gains(self) -> tuple[int, ...]:
        return tuple(
            d + a + b
            for d, a, b in zip(self.differences, self.adjustments, self.out_bonus, strict=True)
        )


def score_round(
    points: Sequence[int],
    closer: int | None,
    empty: Sequence[bool],
    options: Mapping[str, Any],
) -> RoundScore:
    """The round's score from the hand points, the closer (None when the stock ran out) and
    which hands are empty."""
    n = len(points)
    low = min(points)
    winners = [i for i in range(n) if points[i] == low]
    if closer is not None and closer in winners and len(winners) > 1:
        winners.remove(closer)
    multiplier = int(options["two_player_multiplier"]) if n == 2 else 1
    spread = sum(points[j] - low for j in range(n) if j not in winners)
    undercut = closer is not None and closer not in winners
    size = int(options["undercut_points"])
    mode = options["undercut_mode"]
    differences = [0] * n
    adjustments = [0] * n
    out_bonus = [0] * n
    for w in winners:
        differences[w] = multiplier * spread
        if undercut and mode == LITERAL:
            adjustments[w] = -size
        elif undercut and mode == WINNER_PLUS:
            adjustments[w] = size
        if empty[w]:
            out_bonus[w] = int(options["go_out_bonus"])
    if undercut and mode == CLOSER_MINUS and closer is not None:
        adjustments[closer] = -size
    return RoundScore(
        winners=tuple(winners),
        undercut=undercut,
        multiplier=multiplier,
        differences=tuple(differences),
        adjustments=tuple(adjustments),
        out_bonus=tuple(out_bonus),
    )


def end_bonuses(
    totals: Sequence[int], rounds_won: Sequence[int], options: Mapping[str, Any]
) -> tuple[int, ...] | None:
    """The end-of-game bonuses, or None while no total has reached the target."""
    target = int(options["target_score"])
    if max(totals) < target:
        return None
    return tuple(
        int(options["end_bonus"]) if total >= target else int(options["round_win_bonus"]) * won
        for total, won in zip(totals, rounds_won, strict=True)
    )
