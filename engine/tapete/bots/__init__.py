"""Bots over the Game protocol.

A bot is a function ``(game, state, seat, rng) -> move`` that decides ONLY from what ``seat``
may see: ``game.view(state, seat)``, and, for searching bots, worlds made by
``game.sample_world(state, seat, rng)``. Each game registers its levels in ``game.bots``
(a mapping from level name to bot function); the generic ``random`` bot works for every game.

Bots draw from a random stream of their own, derived from a ``seed`` label the caller gives (the
page passes the game record's length), so a bot's choice is reproducible and never shifts the
cards that are dealt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import BadOptionError
from ..rng import Rng

BotFn = Callable[[Any, Any, int, Rng], Any]


def random_bot(game: Any, state: Any, seat: int, rng: Rng) -> Any:
    """A uniformly random legal move."""
    return rng.choice(game.legal_moves(state, seat))


def bot_for(game: Any, level: str) -> BotFn:
    bots: dict[str, BotFn] = dict(getattr(game, "bots", {}))
    bots.setdefault("random", random_bot)
    if level not in bots:
        raise BadOptionError(
            f"{game.id} has no bot level {level!r}; levels: {', '.join(sorted(bots))}",
            option="level",
        )
    return bots[level]


def choose_move(game: Any, state: Any, seat: int, level: str, seed: object = 0) -> Any:
    """The move the bot of ``level`` plays for ``seat``, reproducible for the same seed."""
    bot = bot_for(game, level)
    rng = Rng.derive("bot", game.id, level, seat, seed)
    return bot(game, state, seat, rng)
