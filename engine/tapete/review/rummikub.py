"""Rummikub's judge: the exact solver's best play against the one made, in rack points.

Glossary:

best play     the Hint's answer: ``tapete.rummikub.solve`` on the table and the seat's rack
              (rearranging the whole table; the best initial meld from the rack alone while
              the seat has not melded), the most rack value laid
rack points   what tiles left on a rack count against their owner when the game ends (a tile
              its number, a joker ``joker_rack_penalty``): the game's own unit of loss
loss          the rack points of the best play minus those of the tiles the player laid; a
              draw (or pass, or timeout) lays none, so it loses all the best play would have
              laid
going out     a best play that empties the rack wins the game at once: missing it is a
              mistake whatever the points

Units and grades: a loss under 5 rack points (a low tile or two kept back) is *good*; 5 to 15
(a small meld) an *inaccuracy*; 15 or more (a meld of high tiles, a joker, an initial meld
drawn past) a *mistake*. The solver is exact: every figure here is exact too.
"""

from __future__ import annotations

from typing import Any

from ..rummikub.game import Move, Rummikub, RummikubState
from ..rummikub.rules import validate_play
from ..rummikub.tiles import rack_value, sorted_tiles
from .verdict import Grading, Verdict

GRADING = Grading("rack_points", inaccuracy=5.0, mistake=15.0)
TILES_PER_UNIT = 1  # tiles (rack and table) per work unit of the solver, and a base cost
BASE_COST = 40


def cost(game: Rummikub, state: RummikubState, seat: int) -> int:
    tiles = len(state.racks[seat]) + sum(len(meld.tiles) for meld in state.table)
    return BASE_COST + tiles // TILES_PER_UNIT


def judge(game: Rummikub, state: RummikubState, seat: int, move: Move) -> Verdict | None:
    hint = game.hint(state, seat)
    best_tiles: list[str] = list(hint["placed"])
    if move.kind != "play" and not best_tiles:
        return None  # nothing could be laid: drawing was the only choice
    penalty = int(state.option["joker_rack_penalty"])
    rack = state.racks[seat]
    laid = tiles_laid(state, seat, move)
    best_value = rack_value(best_tiles, penalty)
    laid_value = rack_value(laid, penalty)
    loss = max(0, best_value - laid_value)
    could_go_out = len(best_tiles) == len(rack)
    missed_out = could_go_out and len(laid) < len(rack)
    played = game.move_to_json(move)
    facts: dict[str, Any] = {
        "initial": not state.melded[seat],
        "laid": sorted_tiles(laid),
        "best_laid": sorted_tiles(best_tiles),
        "left_tiles": len(rack) - len(laid),
        "left_points": rack_value(rack, penalty) - laid_value,
        "best_left_tiles": len(rack) - len(best_tiles),
        "best_left_points": rack_value(rack, penalty) - best_value,
        "could_go_out": could_go_out,
    }
    return Verdict(
        move.kind,
        played,
        hint["move"] if loss > 0 or missed_out else played,
        float(loss),
        float(laid_value),
        float(best_value),
        exact=True,
        at_least="mistake" if missed_out else None,
        context={"round": state.turn // state.players + 1, "game_no": state.game_no},
        facts=facts,
    )


def tiles_laid(state: RummikubState, seat: int, move: Move) -> tuple[str, ...]:
    """The tiles a move lays from the rack (none for a draw, a pass or a timeout)."""
    if move.kind != "play":
        return ()
    return validate_play(
        state.table,
        state.racks[seat],
        move.raw(),
        move.from_hand,
        melded=state.melded[seat],
        options=state.option,
    )[1]
