"""Tapete: the rules, move validation, scoring and bots of four card games.

``GAMES`` maps a game id to its (stateless) game object; ``get_game(id)`` raises
``UnknownGameError`` for an id that does not exist. The web page talks to the engine only
through ``tapete.api.handle``.
"""

from __future__ import annotations

from typing import Any

from .errors import UnknownGameError, describe

__version__ = "0.1.0"

GAMES: dict[str, Any] = {}


def register(game: Any) -> Any:
    GAMES[game.id] = game
    return game


def get_game(game_id: object) -> Any:
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise UnknownGameError(f"no game {describe(game_id)}; games: {', '.join(sorted(GAMES))}")
    return game


def _register_all() -> None:
    from .lobo import GAME as lobo
    from .rummikub import GAME as rummikub
    from .willie import GAME as willie
    from .wizard import GAME as wizard

    register(wizard)
    register(willie)
    register(lobo)
    register(rummikub)


_register_all()
