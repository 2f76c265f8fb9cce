"""Hostile requests for ``tapete.api.handle``, generated from a seed: the fuzz campaign
(bench/fuzz_api.py) plays many of them, the unit tests (tests/test_fuzz.py) a fast slice.

Glossary:

corpus     real material per game, made once from fixed seeds: states met along random
           playouts (early, middle, late, over) and the game records that led to them
family     one way of attacking (``FAMILIES``): real ops on real states, states mutated in
           place (numbers as text, exponents, other scripts' digits, wrong types, huge values),
           impossible sizes (cards moved into one hand, lists grown), nonsense moves, garbage
           replays, option and seed abuse, raw JSON text (NaN, 1e999, deep nesting, huge
           strings and lists), cost attacks on every op that searches, random fields
request    ``request_text(game, index)`` is the JSON text of request ``index`` of ``game``: it
           depends on (seed, game, index) alone, so a campaign can stop and resume, and any
           finding can be made again from its index
verdict    what an answer says about the engine (``judge``): ``ok`` or a coded error are fine;
           ``internal``, an exception escaping ``handle``, or text that a browser's
           ``JSON.parse`` refuses (NaN, Infinity) are findings
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tapete import get_game
from tapete.api import handle
from tapete.bots import choose_move
from tapete.errors import error_codes

RESULTS = Path(__file__).resolve().parent / "results"
GAMES = ("wizard", "rummikub", "willie", "lobo")
FAMILIES = {  # name: weight
    "valid": 14,
    "mutate": 28,
    "stuff": 10,
    "move": 10,
    "replay": 8,
    "options": 7,
    "raw": 5,
    "cost": 10,
    "fields": 8,
}
CHEAP_FAMILIES = tuple(name for name in FAMILIES if name != "cost")
CODES = error_codes()

NUMBER_TEXTS = [
    "1e5000",
    "1e9999999",
    "1e99999999",
    "1e400",
    "-1e400",
    "1E3",
    "²",
    "٣",
    "３",
    "--5",
    "+3",
    " 3",
    "3 ",
    "0x1F",
    "1_000",
    "3.0",
    "-0",
    "NaN",
    "Infinity",
    "-",
    "7/0",
    "1/3",
    "-1/2",
    "99999999999999999999",
    "1" * 5000,
    "0" * 40 + "1",
    "",
]
NUMBERS: list[Any] = [
    0,
    -1,
    1,
    2,
    7,
    255,
    2**31,
    2**53 - 1,
    -(2**53) + 1,
    10**6,
    1.5,
    -0.0,
    1e308,
    0.1,
]
OTHER: list[Any] = [None, True, False, [], {}, "", "A" * 300, [[[[[]]]]], {"a": {"b": {}}}]


@dataclass
class Sample:
    """One real state of a game: its JSON, the seat to move (None when over), its record."""

    state: dict[str, Any]
    to_move: int | None
    record: dict[str, Any]


@dataclass
class Corpus:
    samples: dict[str, list[Sample]] = field(default_factory=dict)

    @classmethod
    def make(cls, games: tuple[str, ...] = GAMES, deals: int = 6, seed: str = "FZ") -> Corpus:
        corpus = cls()
        for game_id in games:
            corpus.samples[game_id] = list(_samples(game_id, deals, seed))
        return corpus

    @classmethod
    def load_or_make(cls, game_id: str, deals: int) -> Corpus:
        """The corpus of one game, kept in bench/results/ (making it plays random games)."""
        path = RESULTS / f"fuzz-corpus-{game_id}-{deals}.json"
        if path.exists():
            rows = json.loads(path.read_text())
            return cls({game_id: [Sample(**row) for row in rows]})
        corpus = cls.make((game_id,), deals)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")  # two workers may make it at once
        temporary.write_text(json.dumps([vars(sample) for sample in corpus.samples[game_id]]))
        temporary.replace(path)
        return corpus


def _samples(game_id: str, deals: int, seed: str) -> Iterator[Sample]:
    game = get_game(game_id)
    for deal in range(deals):
        rng = random.Random(f"{seed}-{game_id}-{deal}")
        players = rng.randint(game.min_players, game.max_players)
        state = game.new_game(f"{seed}{deal}", _random_options(game, rng), players)
        moves: list[dict[str, Any]] = []
        stops = sorted(rng.sample(range(1, 300), 3))
        level = "random"
        while True:
            seat = game.to_move(state)
            if seat is None or len(moves) in stops:
                record = {
                    "game": game_id,
                    "seed": f"{seed}{deal}",
                    "options": game.to_json(state)["options"],
                    "players": game.players(state),
                    "moves": list(moves),
                }
                yield Sample(game.to_json(state), seat, record)
            if seat is None or len(moves) >= 300:
                break
            move = choose_move(game, state, seat, level, (deal, len(moves)))
            moves.append({"seat": seat, "move": game.move_to_json(move)})
            state = game.apply(state, seat, move)


def _random_options(game: Any, rng: random.Random) -> dict[str, Any]:
    """Valid options, each knob left at its default half of the time (the engine refuses some
    combinations: then the defaults)."""
    out: dict[str, Any] = {}
    for spec in game.options_spec:
        if rng.random() < 0.5:
            continue
        if spec.kind == "enum":
            out[spec.name] = rng.choice(spec.choices)
        elif spec.kind == "bool":
            out[spec.name] = rng.random() < 0.5
        else:
            out[spec.name] = rng.randint(spec.minimum, spec.maximum)
    try:
        game.parse_options(out)
    except ValueError:
        return {}
    return out


# -- mutation helpers --------------------------------------------------------------------------


def paths(value: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a JSON value (lists by index, objects by key)."""
    yield here
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*here, i))
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from paths(item, (*here, k))


def get_at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def set_at(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    get_at(value, path[:-1])[path[-1]] = new
    return value


def hostile_value(rng: random.Random, old: Any) -> Any:
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(NUMBER_TEXTS)
    if roll < 0.55:
        return rng.choice(NUMBERS)
    if roll < 0.7:
        return copy.deepcopy(rng.choice(OTHER))
    if roll < 0.8 and isinstance(old, int) and not isinstance(old, bool):
        return old + rng.choice([-1, 1, 1000, -1000, 2**40])
    if roll < 0.9 and isinstance(old, str):
        return rng.choice([old + old, old[:-1], old.upper(), old + "\u0000", str(len(old))])
    if isinstance(old, list):
        return old * rng.choice([0, 2, 50])
    return rng.choice(NUMBER_TEXTS + NUMBERS)


def mutate(state: Any, rng: random.Random, count: int) -> Any:
    state = copy.deepcopy(state)
    for _ in range(count):
        every = list(paths(state))[1:]
        if not every:
            break
        path = rng.choice(every)
        roll = rng.random()
        parent = get_at(state, path[:-1])
        if roll < 0.1 and isinstance(parent, dict):
            del parent[path[-1]]
        elif roll < 0.15 and isinstance(parent, dict):
            parent[rng.choice(["extra", "v2", "__proto__", "x" * 200])] = rng.choice(NUMBERS)
        else:
            set_at(state, path, hostile_value(rng, get_at(state, path)))
    return state


def lists_of_strings(state: Any) -> list[tuple[Any, ...]]:
    """The paths of lists of card codes (hands, racks, piles, the stock...)."""
    return [
        p
        for p in paths(state)
        if isinstance(get_at(state, p), list)
        and get_at(state, p)
        and all(isinstance(x, str) for x in get_at(state, p))
    ]


def stuff(state: Any, rng: random.Random) -> Any:
    """Impossible sizes: cards moved from other lists into one, keeping every card (so the
    deck check passes), or one list grown by repeating its items."""
    state = copy.deepcopy(state)
    lists = lists_of_strings(state)
    if not lists:
        return state
    target = rng.choice(lists)
    if rng.random() < 0.7:
        for source in lists:
            if source == target or source[: len(target)] == target:
                continue
            items = get_at(state, source)
            take = len(items) if rng.random() < 0.5 else rng.randint(0, len(items))
            get_at(state, target).extend(items[:take])
            del items[:take]
    else:
        items = get_at(state, target)
        set_at(state, target, items * rng.choice([3, 30, 3000]))
    return state


def nonsense_move(rng: random.Random, game_id: str) -> Any:
    roll = rng.random()
    if roll < 0.25:
        return rng.choice(
            [
                "bid ²",
                "bid ٣",
                "bid 1e5",
                "bid -1",
                "bid 99",
                "play",
                "play R13 R12",
                "trump X",
                "fold",
                "perfect 5H 5S",
                "draw",
                "close",
                "",
                "bid 3" * 100,
                "play \u0000",
            ]
        )
    if roll < 0.45:
        return rng.choice(NUMBER_TEXTS + NUMBERS + OTHER)
    if roll < 0.7:
        table = [
            [rng.choice(["R1", "B13", "*", "K:R9", "5H", "x", 7]) for _ in range(rng.randint(0, 8))]
            for _ in range(rng.choice([1, 5, 60, 600]))
        ]
        return {"play": {"table": table, "from_hand": ["R1", "*"] * rng.randint(0, 40)}}
    if roll < 0.85:
        return {
            "play": rng.choice([None, [], "x", {"table": "x"}, {"table": [[]]}, {"from_hand": 5}])
        }
    return {"kind": rng.choice(["perfect", "sum", "over", "split"]), "give": ["5H"] * 50}


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def raw_text(rng: random.Random, game_id: str) -> str:
    g = json.dumps(game_id)
    choices: list[Callable[[], str]] = [
        lambda: '{"op":"games","id":NaN}',
        lambda: '{"op":"games","id":Infinity}',
        lambda: '{"op":"games","id":-Infinity}',
        lambda: '{"op":"games","id":1e999}',
        lambda: '{"op":"games","id":' + "9" * 5000 + "}",
        lambda: '{"op":"games","id":' + "9" * 30 + "}",
        lambda: '{"op":"view","game":' + g + ',"state":{"v":1e999},"seat":0}',
        lambda: '{"op":"view","game":' + g + ',"state":' + deep(10_000) + ',"seat":0}',
        lambda: deep(100_000),
        lambda: '{"op":"new_game","game":' + g + ',"seed":"' + "A" * 1_900_000 + '"}',
        lambda: '{"op":"lab_summary","records":[' + ",".join(["0"] * 300_000) + "]}",
        lambda: '{"op":"games"',
        lambda: '"just a string"',
        lambda: "null",
        lambda: "\ufeff{}",
        lambda: '{"op":"games","id":"\\ud800"}',
        lambda: '{"op":"apply","game":' + g + ',"state":{},"seat":0,"move":"\\ud800"}',
        lambda: "{" + ",".join(f'"k{i}":{i}' for i in range(100_000)) + "}",
        lambda: '{"op":"view","game":' + g + ',"state":{"v":1,"players":1e5},"seat":0}',
        lambda: '{"op":"games","id":12,"id":{"a":[1,2]}}',
        lambda: "x" * 2_100_000,
    ]
    return rng.choice(choices)()


# -- the request of an index -------------------------------------------------------------------


class Generator:
    """``text(game, index)``: the request ``index`` of ``game`` in a campaign of ``seed``."""

    def __init__(self, corpus: Corpus, seed: str = "FUZZ", families: tuple[str, ...] = ()) -> None:
        self.corpus = corpus
        self.seed = seed
        names = families or tuple(FAMILIES)
        self.families = names
        self.weights = [FAMILIES[name] for name in names]

    def family(self, rng: random.Random) -> str:
        return rng.choices(self.families, self.weights)[0]

    def text(self, game_id: str, index: int) -> tuple[str, str, str]:
        """(family, op, request text) of request ``index``."""
        rng = random.Random(f"{self.seed}/{game_id}/{index}")
        family = self.family(rng)
        made = getattr(self, f"_{family}")(rng, game_id)
        if isinstance(made, str):
            return family, "raw", made
        made.setdefault("id", index)
        return family, str(made.get("op")), json.dumps(made)

    # families: each answers a request object, or raw text

    def sample(self, rng: random.Random, game_id: str) -> Sample:
        return rng.choice(self.corpus.samples[game_id])

    def _valid(self, rng: random.Random, game_id: str) -> dict[str, Any]:
        sample = self.sample(rng, game_id)
        game = get_game(game_id)
        seat = sample.to_move if sample.to_move is not None else 0
        ops = ["view", "legal_moves", "apply", "inspect", "replay", "bot_move", "replay_steps"]
        op = rng.choice(ops)
        base: dict[str, Any] = {"op": op, "game": game_id, "state": sample.state, "seat": seat}
        if op in ("apply", "inspect") and sample.to_move is not None:
            state = game.from_json(sample.state)
            moves = game.legal_moves(state, seat)
            base["move"] = game.move_to_json(rng.choice(moves)) if moves else "pass"
            base["view_seat"] = seat
        elif op == "replay":
            return {"op": "replay", "record": sample.record, "view_seat": 0}
        elif op == "replay_steps":
            total = len(sample.record["moves"]) + 1
            start = rng.randrange(total)
            return {
                "op": op,
                "record": sample.record,
                "view_seat": 0,
                "start": start,
                "count": rng.choice([1, 8, 64]),
                "reveal": sample.to_move is None,
            }
        elif op == "bot_move":
            base["level"] = "random"
            base["bot_seed"] = rng.randint(0, 1000)
        return base

    def _mutate(self, rng: random.Random, game_id: str) -> dict[str, Any]:
        sample = self.sample(rng, game_id)
        state = mutate(sample.state, rng, rng.choice([1, 1, 2, 3]))
        seat = sample.to_move if sample.to_move is not None else 0
        op = rng.choice(["view", "view", "legal_moves", "apply", "hint", "bot_move", "inspect"])
        out: dict[str, Any] = {"op": op, "game": game_id, "state": state, "seat": seat}
        if op in ("apply", "inspect"):
            out["move"] = "pass" if game_id != "wizard" else "bid 0"
        if op == "bot_move":
            out["level"] = get_game(game_id).bot_levels[-1]
        return out

    def _stuff(self, rng: random.Random, game_id: str) -> dict[str, Any]:
        sample = self.sample(rng, game_id)
        state = stuff(sample.state, rng)
        seat = sample.to_move if sample.to_move is not None else 0
        op = rng.choice(["view", "hint", "bot_move", "legal_moves", "arrange"])
        out: dict[str, Any] = {"op": op, "game": game_id, "state": state, "seat": seat}
        if op == "bot_move":
            out["level"] = get_game(game_id).bot_levels[-1]
        if op == "arrange":
            lists = lists_of_strings(state)
            out["tiles"] = get_at(state, rng.choice(lists))[:200] if lists else []
        return out

    def _move(self, rng: random.Random, game_id: str) -> dict[str, Any]:
        sample = self.sample(rng, game_id)
        seat = sample.to_move if sample.to_move is not None else 0
        op = rng.choice(["apply", "inspect", "arrange"])
        out: dict[str, Any] = {"op": op, "game": game_id, "state": sample.state, "seat": seat}
        if op == "arrange":
            out["tiles"] = nonsense_move(rng, game_id)
        else:
            out["move"] = nonsense_move(rng, game_id)
        return out

    def _replay(self, rng: random.Random, game_id: str) -> dict[str, Any]:
        sample = self.sample(rng, game_id)
        record = copy.deepcopy(sample.record)
        roll = rng.random()
        if roll < 0.4:
            record = mutate(record, rng, rng.choice([1, 2]))
        elif roll < 0.6 and record["moves"]:
            record["moves"] = record["moves"] * rng.choice([2, 20])
        elif roll < 0.8:
            record["moves"] = [{"seat": 0, "move": nonsense_move(rng, game_id)}] * rng.choice(
                [1, 1000, 20_000]
            )
        else:
            record[rng.choice(["seed", "players", "options", "game"])] = hostile_value(rng, None)
        op = rng.choice(["replay", "replay", "replay_steps", "review"])
        out: dict[str, Any] = {"op": op, "record": record}
        if op == "replay_steps":
            out.update(start=rng.choice([0, 1, -1, 10**6, "0"]), count=rng.choice([1, 64, 65, 0]))
        if op == "review":
            out.update(
                seat=rng.choice([0, 1, None, -1, "0"]),
                start=rng.choice([0, 3, -1]),
                count=rng.choice([1, 1000, 1001]),
                budget=rng.choice([1, 1500, 1501]),
            )
        out["view_seat"] = rng.choice([0, None, -1, 99, "0"])
        return out

    def _options(self, rng: random.Random, game_id: str) -> dict[str, Any]:
        game = get_game(game_id)
        options: dict[str, Any] = {}
        for spec in game.options_spec:
            if rng.random() < 0.3:
                options[spec.name] = hostile_value(rng, spec.default)
        if rng.random() < 0.2:
            options[rng.choice(["nope", "__class__", "x" * 100])] = 1
        seed = rng.choice(["OK1", "", "a b", "é", "A" * 33, 7, None, "../../x", "K7QX2M"])
        players = rng.choice([None, 0, 1, 3, 4, 6, 7, -1, 2**53, "3", 3.0, True])
        op = rng.choice(
            ["new_game", "new_game", "lobo_deal"] if game_id == "lobo" else ["new_game"]
        )
        if op == "lobo_deal":
            return {"op": op, "seed": seed, "options": options, "budget": rng.choice(NUMBERS)}
        return {
            "op": op,
            "game": game_id,
            "seed": seed,
            "options": options,
            "players": players,
            "view_seat": rng.choice([0, None, 5]),
        }

    def _raw(self, rng: random.Random, game_id: str) -> str:
        return raw_text(rng, game_id)

    def _cost(self, rng: random.Random, game_id: str) -> dict[str, Any]:
        """The dearest request each op allows, on real and on impossible states."""
        sample = self.sample(rng, game_id)
        game = get_game(game_id)
        state = sample.state if rng.random() < 0.6 else stuff(sample.state, rng)
        seat = sample.to_move if sample.to_move is not None else 0
        roll = rng.random()
        if roll < 0.35:
            return {"op": "hint", "game": game_id, "state": state, "seat": seat}
        if roll < 0.6:
            return {
                "op": "bot_move",
                "game": game_id,
                "state": state,
                "seat": seat,
                "level": game.bot_levels[-1],
                "bot_seed": rng.randint(0, 10**6),
            }
        if roll < 0.7 and game_id in ("rummikub", "willie"):
            tiles = sorted({c for p in lists_of_strings(state) for c in get_at(state, p)})
            return {"op": "arrange", "game": game_id, "state": state, "seat": seat, "tiles": tiles}
        if roll < 0.75:
            return {"op": "replay", "record": sample.record, "view_seat": 0}
        if roll < 0.8:
            record = dict(sample.record, seats=[{"kind": "human"}] * sample.record["players"])
            return {
                "op": "review",
                "record": record,
                "seat": rng.randrange(record["players"]),
                "start": 0,
                "count": 1000,
                "budget": 1500,
            }
        if roll < 0.9 and game_id == "lobo":
            options = rng.choice(
                [
                    {},
                    {"difficulty": "HARD"},
                    {
                        "mode": "CLASSIC_LOBO",
                        "suits": 5,
                        "difficulty": "HARD",
                        "classic_target": 1000,
                    },
                    {"mode": "CLASSIC_LOBO"},
                ]
            )
            return {
                "op": "lobo_deal",
                "seed": f"C{rng.randint(0, 10**6)}",
                "options": options,
                "budget": rng.choice([60_000, 3_000_000]),
                "policy": True,
            }
        if roll < 0.95:
            knobs = rng.choice(
                [{}, {"target_score": 1000, "close_threshold": 0}, {"hand_size": 12}]
            )
            config = {
                "game": "willie",
                "players": [rng.choice([2, 3])],
                "games": 100_000,
                "seed": "X",
                "options": knobs,
                "levels": [rng.choice(["random", "easy", "normal"])],
            }
            return {"op": "lab", "config": config, "start": rng.randint(0, 99_000), "count": 1000}
        config = {
            "game": game_id,
            "players": [1],
            "games": 10,
            "seed": "x",
            "options": {},
            "levels": ["random"],
        }
        return {"op": "lab", "config": config, "start": 0, "count": 1}

    def _fields(self, rng: random.Random, game_id: str) -> dict[str, Any]:
        sample = self.sample(rng, game_id)
        op = rng.choice(
            [
                "games",
                "new_game",
                "apply",
                "view",
                "legal_moves",
                "bot_move",
                "hint",
                "inspect",
                "arrange",
                "replay",
                "lab",
                "lab_summary",
                "lobo_deal",
                "replay_steps",
                "review",
                "nope",
                "",
                None,
                5,
            ]
        )
        out: dict[str, Any] = {"op": op}
        for name in (
            "game",
            "state",
            "seat",
            "move",
            "level",
            "bot_seed",
            "view_seat",
            "record",
            "config",
            "start",
            "count",
            "tally",
            "tiles",
            "seed",
            "options",
            "players",
            "budget",
            "policy",
            "resume",
            "records",
            "tallies",
        ):
            if rng.random() < 0.35:
                out[name] = rng.choice(
                    [*NUMBER_TEXTS[:8], *NUMBERS, *OTHER, game_id, sample.state, sample.record]
                )
        return out


# -- judging an answer -------------------------------------------------------------------------


def _refuse(text: str) -> Any:
    raise ValueError(f"not JSON a browser reads: {text}")


def judge(request: str) -> tuple[str, str]:
    """(verdict, code): verdict ``ok`` | ``error`` | ``internal`` | ``escaped`` |
    ``invalid_json``; code the error's code (or ``""``)."""
    try:
        answer = handle(request)
    except BaseException as error:  # noqa: BLE001 - that is the finding
        return "escaped", type(error).__name__
    try:
        data = json.loads(answer, parse_constant=_refuse)
    except ValueError:
        return "invalid_json", ""
    if not isinstance(data, dict) or not isinstance(data.get("ok"), bool):
        return "invalid_json", "shape"
    if data["ok"]:
        return "ok", ""
    code = data.get("error", {}).get("code", "")
    if code == "internal":
        return "internal", str(data["error"].get("message", ""))[:200]
    if code not in CODES:
        return "invalid_json", f"unknown code {code!r}"
    return "error", code
