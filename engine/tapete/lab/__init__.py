"""The playtest lab: seeded bot-vs-bot games of one setting of a game's knobs, and the numbers a
designer asks about (written for Willie, whose designer is still tuning it).

Modules:

``run``      a setting (:class:`LabConfig`) and its games (:func:`run`), and the side-by-side table
``records``  what one finished game leaves behind, and its JSON form
``tally``    games counted into exact multisets, so chunks add up to the same numbers
``stats``    the numbers of a tally, and the table's cells
``ops``      the worker's ``lab`` and ``lab_summary`` ops (the page runs a lab in chunks)

``python -m tapete.lab`` prints the same table from the command line (``__main__``).
"""

from __future__ import annotations

from .run import MAX_GAMES, LabConfig, LabResult, markdown, play_game, run

__all__ = ["MAX_GAMES", "LabConfig", "LabResult", "main", "markdown", "play_game", "run"]


def main(argv: list[str] | None = None) -> int:
    """The command line (``python -m tapete.lab``)."""
    from .__main__ import main as cli

    return cli(argv)
