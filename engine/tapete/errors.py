"""Coded errors of the engine.

Every error a caller can cause is an :class:`EngineError` with a stable ``code``; the web page
maps the code (and ``reason``, for illegal moves) to a message in the player's language, and
``message`` is an English explanation that quotes the offending input.

Codes:

``invalid_move``   the move is malformed (not a move of this game at all)
``illegal_move``   a well-formed move the rules forbid now; ``reason`` says which rule
``not_your_turn``  the seat is not the one to move
``game_over``      the game has ended
``bad_state``      a state or record that cannot be read; ``path`` names the JSON path
``bad_option``     an unknown option, a bad value, or an impossible combination
``unknown_game``   no game with that id
``bad_request``    an API request that is not well formed (not JSON, unknown op, wrong types)

Any other exception escaping the engine is a bug, and the API answers ``internal``.
"""

from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """Base class of every error the engine raises on purpose."""

    code = "engine_error"

    def __init__(self, message: str, *, reason: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.details = details

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        for key, value in self.details.items():
            if value is not None:
                out[key] = value
        return out


class InvalidMoveError(EngineError):
    """A move that cannot be parsed or is not a move of this game."""

    code = "invalid_move"


class IllegalMoveError(EngineError):
    """A well-formed move that the rules forbid in this position.

    ``reason`` is a stable snake_case key such as ``must_follow_suit``; ``details`` carry the
    numbers a message needs (for instance the suit to follow).
    """

    code = "illegal_move"

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message, reason=reason, **details)


class NotYourTurnError(EngineError):
    code = "not_your_turn"


class GameOverError(EngineError):
    code = "game_over"


class BadStateError(EngineError):
    """A state, record or saved game that cannot be read; ``path`` names where."""

    code = "bad_state"

    def __init__(self, message: str, *, path: str = "$") -> None:
        super().__init__(f"{message} (at {path})", path=path)


class BadOptionError(EngineError):
    code = "bad_option"


class UnknownGameError(EngineError):
    code = "unknown_game"


class BadRequestError(EngineError):
    code = "bad_request"


def describe(value: Any, limit: int = 60) -> str:
    """A short, safe quotation of user input for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def error_codes() -> frozenset[str]:
    """The code of every error class the engine raises (what a front end must translate)."""
    codes: set[str] = set()
    todo = list(EngineError.__subclasses__())
    while todo:
        cls = todo.pop()
        codes.add(cls.code)
        todo += cls.__subclasses__()
    return frozenset(codes)
