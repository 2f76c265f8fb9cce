"""The engine contract that every game implements.

Glossary:

seat      a player's index, 0..N-1, clockwise; "left" is the next seat
state     an immutable snapshot of a whole game (frozen dataclasses of tuples); the seed lives in
          it, so the state alone determines every later deal
move      a small value object with a text form; ``parse_move``/``move_to_json`` cross JSON
view      the JSON-ready part of a state one seat may see (``seat=None``: a spectator)
options   a game's variant knobs, declared once as :class:`OptionSpec` values; the page renders
          the new-game form from the same declarations (see ``catalogue``)
outcome   final scores and winners, or None while the game runs

The game object is stateless (OpenSpiel's Game/State split). ``apply`` always checks: there is
no unchecked way to change a state. Bots, the API, saves and the conformance tests are written
once against this class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import (
    BadOptionError,
    BadRequestError,
    BadStateError,
    GameOverError,
    NotYourTurnError,
    describe,
)
from .numbers import SAFE, whole, whole_text
from .rng import Rng, is_valid_seed

S = TypeVar("S")
M = TypeVar("M")

JsonDict = dict[str, Any]
MAX_LIST = 1_000  # the longest list of numbers a state holds where no rule gives its length


@dataclass(frozen=True)
class Outcome:
    """The end of a game: final ``scores`` per seat and the winning seats (several on a tie)."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        return {"scores": list(self.scores), "winners": list(self.winners), **dict(self.detail)}


@dataclass(frozen=True)
class OptionSpec:
    """One variant knob: an enumeration (``choices``), an int range, or a bool.

    ``applies_when = ("mode", ("CLASSIC_LOBO",))`` says the knob only matters when the enum
    option ``mode`` has one of those values; the new-game screen hides it (and sends its
    default) otherwise.
    """

    name: str
    default: Any
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    applies_when: tuple[str, tuple[str, ...]] | None = None

    @property
    def kind(self) -> str:
        if self.choices is not None:
            return "enum"
        if isinstance(self.default, bool):
            return "bool"
        return "int"

    def parse(self, value: Any) -> Any:
        """The validated value, accepting the text forms a link carries ("true", "3")."""
        kind = self.kind
        if kind == "enum":
            if isinstance(value, str) and self.choices is not None and value in self.choices:
                return value
            raise BadOptionError(
                f"option {self.name!r} must be one of {', '.join(self.choices or ())}; "
                f"got {describe(value)}",
                option=self.name,
                reason="not_a_choice",
                choices=list(self.choices or ()),
                got=quoted(value),
            )
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if value in ("true", "1", 1):
                return True
            if value in ("false", "0", 0):
                return False
            raise BadOptionError(
                f"option {self.name!r} must be true or false; got {describe(value)}",
                option=self.name,
                reason="not_bool",
                got=quoted(value),
            )
        number = whole_text(value, -SAFE, SAFE)
        if number is None:
            raise BadOptionError(
                f"option {self.name!r} must be a whole number; got {describe(value)}",
                option=self.name,
                reason="not_whole",
                got=quoted(value),
            )
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            raise BadOptionError(
                f"option {self.name!r} must be between {self.minimum} and {self.maximum}; "
                f"got {number}",
                option=self.name,
                reason="out_of_range",
                min=self.minimum,
                max=self.maximum,
                got=number,
            )
        return number

    def to_json(self) -> JsonDict:
        out: JsonDict = {"name": self.name, "kind": self.kind, "default": self.default}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        if self.applies_when is not None:
            option, values = self.applies_when
            out["applies_when"] = {"option": option, "values": list(values)}
        return out


def quoted(value: Any, limit: int = 40) -> str:
    """A refused option value as the player wrote it (a link's text as it is), kept short: the
    page quotes it in its message."""
    text = value if isinstance(value, str) else describe(value, limit)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_options(specs: Sequence[OptionSpec], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with ``raw``; unknown names and bad values raise ``bad_option``."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise BadOptionError(f"options must be an object; got {describe(raw)}")
    by_name = {spec.name: spec for spec in specs}
    out = {spec.name: spec.default for spec in specs}
    for name, value in raw.items():
        spec = by_name.get(name) if isinstance(name, str) else None
        if spec is None:
            raise BadOptionError(
                f"unknown option {describe(name)}", option=str(name)[:60], reason="unknown_option"
            )
        out[name] = spec.parse(value)
    return out


class Game(Generic[S, M]):
    """Base class of every game. Subclasses fill in the hooks marked ``Subclasses implement``.

    The public methods here enforce what is common to every game: turn order, the end of the
    game, and that ``apply`` never runs without ``check``.
    """

    id: str = ""
    min_players: int = 1
    max_players: int = 1
    default_players: int = 1
    options_spec: tuple[OptionSpec, ...] = ()
    bot_levels: tuple[str, ...] = ("random",)
    cards_total: int = 0
    # view keys that describe earlier deals (a score sheet, the first-dealer draw): their card
    # codes name cards of another shuffle, so the conformance test's leak check skips them
    past_view_keys: tuple[str, ...] = ()

    # -- options and setup -------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        options = parse_options(self.options_spec, raw)
        self.validate_options(options)
        return options

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """Subclasses reject impossible combinations here (``bad_option``)."""

    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptionError(f"players must be a whole number; got {describe(players)}")
        if not self.min_players <= players <= self.max_players:
            raise BadOptionError(
                f"{self.id} takes {self.min_players} to {self.max_players} players; got {players}",
                option="players",
            )
        return players

    @staticmethod
    def check_seed(seed: Any) -> str:
        if not is_valid_seed(seed):
            raise BadOptionError(
                f"a seed is 1 to 32 letters, digits, '-' or '_'; got {describe(seed)}",
                option="seed",
            )
        return str(seed)

    def new_game(
        self, seed: str, options: Mapping[str, Any] | None = None, players: int | None = None
    ) -> S:
        seed = self.check_seed(seed)
        count = self.check_players(players)
        return self.setup(seed, self.parse_options(options), count)

    # -- turn structure ----------------------------------------------------------------------

    def to_move(self, state: S) -> int | None:
        raise NotImplementedError

    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Every legal move of ``seat`` (empty when it is not that seat's turn)."""
        if self.to_move(state) != seat:
            return []
        return self.moves(state, seat)

    def players(self, state: S) -> int:
        """Subclasses implement: the number of seats."""
        raise NotImplementedError

    def check_turn(self, state: S, seat: int) -> None:
        """Raise ``game_over`` or ``not_your_turn`` unless ``seat`` is to move."""
        mover = self.to_move(state)
        if mover is None:
            raise GameOverError("the game is over")
        if seat != mover:
            raise NotYourTurnError(f"it is seat {mover}'s turn, not seat {seat}'s", seat=mover)

    def check(self, state: S, seat: int, move: M) -> None:
        """Raise a coded error unless ``seat`` may play ``move`` now."""
        self.check_turn(state, seat)
        self.check_move(state, seat, move)

    def apply(self, state: S, seat: int, move: M) -> S:
        """The state after ``move``; the input state is never changed."""
        self.check(state, seat, move)
        return self.play(state, seat, move)

    # -- hooks -------------------------------------------------------------------------------

    def setup(self, seed: str, options: dict[str, Any], players: int) -> S:
        """Subclasses implement: the first state."""
        raise NotImplementedError

    def moves(self, state: S, seat: int) -> list[M]:
        """Subclasses implement: the legal moves of the seat to move."""
        raise NotImplementedError

    def check_move(self, state: S, seat: int, move: M) -> None:
        """Subclasses implement: raise IllegalMoveError for a move the rules forbid."""
        raise NotImplementedError

    def play(self, state: S, seat: int, move: M) -> S:
        """Subclasses implement: apply a move already checked."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> JsonDict:
        raise NotImplementedError

    def sample_world(self, state: S, seat: int, rng: Rng) -> S:
        """A state the seat cannot tell from ``state``: hidden cards re-dealt consistently."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        raise NotImplementedError

    def to_json(self, state: S) -> JsonDict:
        raise NotImplementedError

    def from_json(self, data: Any) -> S:
        raise NotImplementedError

    def parse_move(self, data: Any) -> M:
        raise NotImplementedError

    def move_to_json(self, move: M) -> Any:
        raise NotImplementedError

    def hint(self, state: S, seat: int) -> JsonDict:
        """A suggested move for ``seat`` with an explanation; games override this."""
        from .bots import choose_move

        move = choose_move(self, state, seat, self.bot_levels[-1], seed="hint")
        return {"move": self.move_to_json(move)}

    def describe_melds(self, state: S, seat: int, table: Any) -> list[JsonDict]:
        """Games with a table of melds: one entry per meld of a proposed ``table`` (JSON, as in
        a play's ``table``): ``{valid, kind?, value?, reason?, ...}``. An invalid meld is
        described, never raised: the page shows it while the player is still building."""
        raise BadRequestError(f"{self.id} has no table of melds")

    def arrange(self, state: S, seat: int, tiles: Any) -> JsonDict:
        """Games with a table of melds: a valid table that lays ``tiles`` from the seat's hand
        (the page's auto-arrange), as ``{table, from_hand, complete}``; ``table`` is None when
        none of them can be laid."""
        raise BadRequestError(f"{self.id} has no table of melds")

    def hidden_cards(self, state: S, seat: int | None) -> Sequence[str]:
        """The cards ``seat`` may not see (other hands, the stock); for the conformance tests."""
        raise NotImplementedError

    def seat_cards(self, state: S) -> Sequence[str]:
        """Every card of the game in this state, for conservation tests (a multiset)."""
        raise NotImplementedError

    def catalogue(self) -> JsonDict:
        """What the new-game screen needs, written to dist/ at build time."""
        return {
            "id": self.id,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.default_players,
            "options": [spec.to_json() for spec in self.options_spec],
            "bot_levels": list(self.bot_levels),
        }


def require(condition: bool, message: str, path: str) -> None:
    """For ``from_json``: raise ``bad_state`` naming the JSON path unless condition holds."""
    if not condition:
        raise BadStateError(message, path=path)


def get_field(data: Any, key: str, kind: type | tuple[type, ...], path: str) -> Any:
    """``data[key]`` checked to be of ``kind`` (bools are not ints), else ``bad_state``."""
    require(isinstance(data, dict), "expected an object", path)
    require(key in data, f"missing field {key!r}", path)
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    require(ok, f"field {key!r} has the wrong type", f"{path}.{key}")
    return value


def int_field(data: Any, key: str, low: int, high: int, path: str = "$") -> int:
    """``data[key]``, a whole number from ``low`` to ``high``, else ``bad_state``."""
    value = whole(get_field(data, key, int, path), low, high)
    require(value is not None, f"{key} must be {low} to {high}", f"{path}.{key}")
    assert value is not None
    return value


def int_list(items: Any, path: str, size: int | None, low: int, high: int) -> tuple[int, ...]:
    """A list of whole numbers from ``low`` to ``high`` (of ``size`` items when given; at most
    ``MAX_LIST`` otherwise), else ``bad_state`` naming the first bad item."""
    require(isinstance(items, list), "expected a list of whole numbers", path)
    count = "" if size is None else f"{size} "
    require(
        len(items) == size if size is not None else len(items) <= MAX_LIST,
        f"expected {count}whole numbers",
        path,
    )
    out = []
    for i, item in enumerate(items):
        value = whole(item, low, high)
        require(value is not None, f"expected a whole number {low} to {high}", f"{path}[{i}]")
        assert value is not None
        out.append(value)
    return tuple(out)


def card_list(items: Any, path: str, known: AbstractSet[str]) -> tuple[str, ...]:
    """A list of cards, each one of ``known`` (a game's deck), else ``bad_state`` naming the
    first that is not."""
    require(isinstance(items, list), "expected a list of cards", path)
    for i, card in enumerate(items):
        require(isinstance(card, str) and card in known, "not a card", f"{path}[{i}]")
    return tuple(items)


def card_lists(
    items: Any, path: str, size: int, known: AbstractSet[str]
) -> tuple[tuple[str, ...], ...]:
    """``size`` lists of cards (a hand per seat, say), each read by :func:`card_list`."""
    require(isinstance(items, list) and len(items) == size, f"expected {size} entries", path)
    return tuple(card_list(item, f"{path}[{i}]", known) for i, item in enumerate(items))


def state_header(seed: str, players: int, options: Mapping[str, Any]) -> JsonDict:
    """The fields every saved state starts with (``read_state_header`` reads them back)."""
    return {"v": 1, "seed": seed, "players": players, "options": options}


def read_state_header(
    game: Game[Any, Any], data: Any, name: str
) -> tuple[str, int, dict[str, Any]]:
    """The fields every saved state starts with: version 1, seed, players and options."""
    require(isinstance(data, dict), f"a {name} state is an object", "$")
    require(data.get("v") == 1, "unknown state version", "$.v")
    seed = get_field(data, "seed", str, "$")
    players = int_field(data, "players", game.min_players, game.max_players)
    try:
        game.check_seed(seed)
        options = game.parse_options(get_field(data, "options", dict, "$"))
    except BadOptionError as error:
        raise BadStateError(error.message, path="$.options") from None
    return seed, players, options
