"""The table jokers that RACK_ONLY pins, decided before the dynamic program runs.

Glossary:

pin        a table joker that keeps the tile it stands for unless a rack tile of that slot
           releases it (``program.Pin``: the jokers of one old meld)
kept       the joker stays that tile; it counts as a table tile of its slot (it may move, as
           that tile)
released   the tile comes from the rack and the joker is free; the slot must use that rack tile
scenario   one decision for every pinned joker: the program runs once per scenario

Why outside the program: inside, every state carried the pins' decisions across the colours of
their number, and the states there multiplied by them. Decided beforehand, each scenario is a
plain program, a kept joker's slot loses its rack tiles (playing that tile too is the same as
releasing the joker, which may then stand for it: another scenario), so its bound is tighter,
and the best scenario so far is the floor of the next (branch and bound, in ``solver``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations, product

from .program import Pin, Problem


@dataclass
class Scenario:
    """One way to decide every pin before the program runs: the problem with the kept jokers
    counted as table tiles of their slots and the released ones free (their slots must use a
    rack tile each), and the pin records the builder needs, by (colour, number)."""

    problem: Problem
    records: dict[tuple[int, int], tuple[tuple[int, str], ...]]
    released: int


Decision = tuple[tuple[int, int], tuple[int, str]]  # (colour, number), (pin index, kind)
# one pin's decision: its decisions and the places whose rack tiles it plays no more of than
# the releases need (another scenario covers playing more)
Choice = tuple[list[Decision], list[tuple[int, int]]]


def pin_scenarios(problem: Problem) -> list[Scenario]:
    """Every decision of the pins (each pinned joker kept or released, as one of its colours;
    the jokers of one group as different colours), those the rack cannot pay for left out,
    the most releases first. One scenario, the problem itself, when there are no pins.

    The scenarios do not overlap where that is cheap to say: a kept joker's slot plays no more
    rack tiles (that is releasing it); and when no two pins share a place, a lone joker of a
    group kept as either colour plays no rack tile of its other colours (that is releasing it
    as one of those), and released as its second colour plays no rack tile of the first (that
    is releasing it as the first). Each such cap tightens the scenario's bound."""
    if not problem.pins:
        return [Scenario(problem, {}, 0)]
    places = [(c, pin.number) for pin in problem.pins for c in pin.colours]
    apart = len(places) == len(set(places))
    out = [
        scenario
        for combo in product(
            *(_choices(index, pin, apart) for index, pin in enumerate(problem.pins))
        )
        if (
            scenario := _decide(
                problem,
                [d for decisions, _ in combo for d in decisions],
                [place for _, capped in combo for place in capped],
            )
        )
    ]
    out.sort(key=lambda s: -s.released)
    return out


def _choices(index: int, pin: Pin, apart: bool) -> list[Choice]:
    """The ways to decide one pin: a colour and keep or release for each of its jokers."""
    out: list[Choice] = []
    for colours in combinations(pin.colours, pin.count):
        for kinds in product(("keep", "release"), repeat=pin.count):
            decisions = [
                ((colour, pin.number), (index, kind))
                for colour, kind in zip(colours, kinds, strict=True)
            ]
            capped = [place for place, (_, kind) in decisions if kind == "keep"]
            if apart and pin.count == 1:
                colour = colours[0]
                if kinds[0] == "keep":
                    capped = [(c, pin.number) for c in pin.colours]
                else:
                    capped = [(c, pin.number) for c in pin.colours[: pin.colours.index(colour)]]
            out.append((decisions, capped))
    return out


def _decide(
    problem: Problem, decisions: list[Decision], capped: list[tuple[int, int]]
) -> Scenario | None:
    """The problem with these decisions made, or None when the rack cannot release them;
    ``capped`` places play no more rack tiles than the releases need."""
    table = list(problem.table)
    min_rack = list(problem.min_rack)
    records: dict[tuple[int, int], tuple[tuple[int, str], ...]] = {}
    released = 0
    for (colour, number), record in decisions:
        slot = colour * 13 + number - 1
        if record[1] == "keep":
            table[slot] += 1
        else:
            min_rack[slot] += 1
            released += 1
        records[(colour, number)] = records.get((colour, number), ()) + (record,)
    if any(need > have for need, have in zip(min_rack, problem.rack, strict=True)):
        return None
    rack = list(problem.rack)
    for colour, number in capped:
        slot = colour * 13 + number - 1
        rack[slot] = min_rack[slot]
    decided = replace(
        problem,
        table=table,
        rack=rack,
        min_rack=min_rack,
        pins=[],
        free_table_jokers=problem.free_table_jokers + released,
    )
    return Scenario(decided, records, released)
