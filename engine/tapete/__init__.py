"""Tapete: the rules, move validation, scoring and bots of four card games.

``GAMES`` maps a game id to its (stateless) game object; ``get_game(id)`` raises
``UnknownGameError`` for an id that does not exist. The web page talks to the engine only
through ``tapete.api.handle``.

A game's package is imported the first time ``GAMES`` hands out its object, not with
``tapete``: the worker is ready once ``tapete.api`` is imported, and a visit that plays one
game never pays for the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from importlib import import_module
from typing import Any

from .errors import UnknownGameError, describe

__version__ = "0.1.0"


class LazyGames(Mapping[str, Any]):
    """Game id -> game object: the ``GAME`` of the package ``tapete.<id>``, imported the first
    time it is looked up (listing the ids imports nothing)."""

    def __init__(self, game_ids: Iterable[str]) -> None:
        self._ids = tuple(game_ids)
        self._games: dict[str, Any] = {}

    def __getitem__(self, game_id: str) -> Any:
        if game_id not in self._games:
            if game_id not in self._ids:
                raise KeyError(game_id)
            self._games[game_id] = import_module(f".{game_id}", __name__).GAME
        return self._games[game_id]

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._ids

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


GAMES = LazyGames(["wizard", "willie", "lobo", "rummikub"])


def get_game(game_id: object) -> Any:
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise UnknownGameError(f"no game {describe(game_id)}; games: {', '.join(sorted(GAMES))}")
    return game
