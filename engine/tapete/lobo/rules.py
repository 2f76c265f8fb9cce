"""The rules of Lobo: The Vanguard (SPEC.md section 4), and of Classic Lobo as a mode.

Glossary:

pile       the draw pile, top card first (``pile[0]``); everyone sees its top card and its
           size, nobody sees the order below the top
hand       the player's cards; ``wolf`` the Wolf's hand; both are face up and kept sorted
reserve    number cards banked after won rounds; in every move they act as hand cards
pool       hand + reserve: the cards a capture may give
members    the party J, Q, K of spades as booleans (True = face up, "active"); ``()`` in
           Classic Lobo, which has no party
final      the final round: no Split or Over, no draws, and Sacrifice allowed
capture    a move that takes Wolf cards: Perfect, Sum, Split, Over, Sacrifice, Wild
choice     the optional step after a won round that is not final: ``reserve``, ``revive`` or
           ``skip``
round      1, 2, ...; in Classic Lobo each round deals from a deck shuffled for that round

Moves (the text form is also the JSON form; a side of a capture is written in descending rank):

``perfect 7H>7S``        one card takes a Wolf card of the same rank; then the player draws
``sum 4H+2C>6D``         two or more cards take one Wolf card of their total; then a draw
``split 9H>6S+2D+AC``    one card takes two or more Wolf cards of its rank in total; the Wolf
                         draws 1 (needs a card in the pile)
``over 7H>6C``           one card takes a lower Wolf card; the Wolf draws the difference
                         (needs that many cards in the pile)
``sacrifice JS>8D``      final round only: turn an active member face down to discard any one
                         Wolf card; one member must stay active
``wild 5H>8D``           final round, option ``reserve_is_wild_in_final`` only: a reserve card
                         discards any one Wolf card
``fold``                 end the round as a loss (always allowed; the only move when no capture is
                         left, which is the "forced fold")
``reserve 5H``           after a won round: bank a hand card
``revive QS``            after a won round: turn a face-down member face up
``skip``                 after a won round: neither

``parse_move`` also reads a capture without its name, as a page sends a selection of cards:
``4H+2C>6D`` is read as ``sum 4H+2C>6D`` (see :func:`infer_kind`; a wild card must be named).
The name is case-insensitive and spaces around ``+`` and ``>`` are allowed; card codes are
exactly those of SPEC.md section 7.

Two moves that differ only in the suits of their cards are different moves (different cards
leave the game), so ``legal_moves`` lists both; no move is listed twice.

Draws happen after a capture even when it empties the Wolf's hand (V-4). A round in which the
pile runs out becomes final from that moment (V-12 (a)); with ``final_trigger = BEFORE_DEAL`` a
round that starts with 8 or fewer cards in the pile is final (V-12 (b)), with ``AFTER_DEAL`` one
where 8 or fewer are left after the deal (those are never drawn). A round that is not won with a
move ends with ``fold``: the engine never folds for the player, it lists ``fold`` alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import IllegalMoveError, InvalidMoveError, describe
from ..rng import Rng
from .cards import (
    DIFFICULTY_RANKS,
    MEMBERS,
    RANK_OF,
    deck,
    move_order,
    parse_card,
    parse_member,
    sorted_cards,
    spell_sum,
    total,
)

VANGUARD = "VANGUARD"
CLASSIC = "CLASSIC_LOBO"
BEFORE_DEAL = "BEFORE_DEAL"
AFTER_DEAL = "AFTER_DEAL"
WOLF_FIRST = "WOLF_FIRST"
PLAYER_FIRST = "PLAYER_FIRST"

PLAY = "play"
CHOICE = "choice"
OVER = "over"

HAND_SIZE = 4
FINAL_PILE = 8  # a round starting with this many cards or fewer is final (V-12)
MEMBER_POINTS = 10

CAPTURES = ("perfect", "sum", "split", "over", "sacrifice", "wild")
CHOICES = ("reserve", "revive", "skip")
KINDS = (*CAPTURES, "fold", *CHOICES)


@dataclass(frozen=True)
class Rules:
    """The options of one game (SPEC.md 4.5), already validated."""

    mode: str = VANGUARD
    difficulty: str = "STANDARD"
    suits: int = 4
    final_trigger: str = BEFORE_DEAL
    short_deal_order: str = WOLF_FIRST
    reserve_is_wild_in_final: bool = False
    score_includes_reserve: bool = False
    classic_target: int = 100

    @property
    def max_rank(self) -> int:
        return DIFFICULTY_RANKS[self.difficulty]

    @property
    def classic(self) -> bool:
        return self.mode == CLASSIC

    @property
    def deck(self) -> tuple[str, ...]:
        return deck(self.max_rank, self.suits)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "difficulty": self.difficulty,
            "suits": self.suits,
            "final_trigger": self.final_trigger,
            "short_deal_order": self.short_deal_order,
            "reserve_is_wild_in_final": self.reserve_is_wild_in_final,
            "score_includes_reserve": self.score_includes_reserve,
            "classic_target": self.classic_target,
        }


@dataclass(frozen=True)
class RoundEnd:
    """How a round ended. ``points`` are the Classic points scored (by the player when
    ``won``, else by the Wolf), or the final score of a won Vanguard game (else 0)."""

    round: int
    won: bool
    wolf_left: int
    members_lost: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "won": self.won,
            "wolf_left": self.wolf_left,
            "members_lost": self.members_lost,
            "points": self.points,
        }


@dataclass(frozen=True)
class LoboState:
    seed: str
    rules: Rules
    round: int
    phase: str
    pile: tuple[str, ...]
    hand: tuple[str, ...]
    wolf: tuple[str, ...]
    reserve: tuple[str, ...]
    discard: tuple[str, ...]
    members: tuple[bool, ...]
    final: bool
    scores: tuple[int, int] = (0, 0)
    history: tuple[RoundEnd, ...] = ()
    result: str | None = None

    @property
    def active(self) -> int:
        return sum(self.members)

    @property
    def pool(self) -> tuple[str, ...]:
        return self.hand + self.reserve


@dataclass(frozen=True)
class Move:
    """A move; build it with :func:`make_move` so its sides are in canonical order."""

    kind: str
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()

    def text(self) -> str:
        if self.kind in ("fold", "skip"):
            return self.kind
        if self.kind in ("reserve", "revive"):
            return f"{self.kind} {self.give[0]}"
        return f"{self.kind} {'+'.join(self.give)}>{'+'.join(self.take)}"

    def __str__(self) -> str:
        return self.text()


def make_move(kind: str, give: Sequence[str] = (), take: Sequence[str] = ()) -> Move:
    if kind == "sacrifice" or kind in CHOICES:
        return Move(kind, tuple(give), move_order(take))
    return Move(kind, move_order(give), move_order(take))


FOLD = Move("fold")
SKIP = Move("skip")


# -- parsing -------------------------------------------------------------------------------


def parse_move(data: object) -> Move:
    """A move from its text form; ``invalid_move`` quoting the text if it is not one."""
    if not isinstance(data, str):
        raise InvalidMoveError(
            f"a Lobo move is a text such as 'sum 4H+2C>6D'; got {describe(data)}"
        )
    text = data.strip()
    if not text or len(text) > 120:
        raise InvalidMoveError(f"not a Lobo move: {describe(data)}", move=data[:60])
    head, _, rest = text.partition(" ")
    kind = head.lower()
    rest = rest.strip()
    if ">" in head or (kind not in KINDS and ">" in text):
        return _parse_capture(infer_kind(text, data), text, data)
    if kind not in KINDS:
        raise InvalidMoveError(
            f"unknown move {describe(head)} in {describe(data)}; moves: {', '.join(KINDS)}",
            move=data[:60],
        )
    if kind in ("fold", "skip"):
        if rest:
            raise InvalidMoveError(f"{kind} takes no cards: {describe(data)}", move=data[:60])
        return Move(kind)
    if kind in ("reserve", "revive"):
        if not rest or " " in rest:
            raise InvalidMoveError(f"{kind} names one card: {describe(data)}", move=data[:60])
        card = parse_member(rest) if kind == "revive" else parse_card(rest)
        return Move(kind, (card,))
    return _parse_capture(kind, rest, data)


def infer_kind(text: str, data: str) -> str:
    """The capture a selection of cards makes (``4H+2C>6D`` is a sum): a member given is a
    sacrifice; several cards for one, a sum; one for several, a split; one for one, a perfect
    when the ranks are equal, else an over (``check`` then says why a lower card cannot)."""
    given, _, taken = text.partition(">")
    give = [code.strip() for code in given.split("+")]
    take = [code.strip() for code in taken.split("+")]
    if len(give) == 1 and give[0] in MEMBERS:
        return "sacrifice"
    if len(give) > 1 and len(take) > 1:
        raise InvalidMoveError(
            f"a capture gives several cards for one Wolf card, or one card for several; "
            f"got {describe(data)}",
            move=data[:60],
        )
    if len(give) > 1:
        return "sum"
    if len(take) > 1:
        return "split"
    mine, theirs = parse_card(give[0]), parse_card(take[0])
    return "perfect" if RANK_OF[mine] == RANK_OF[theirs] else "over"


def _parse_capture(kind: str, rest: str, data: str) -> Move:
    given, arrow, taken = rest.partition(">")
    if not arrow or not given.strip() or not taken.strip():
        raise InvalidMoveError(
            f"a {kind} is written '{kind} YOUR+CARDS>WOLF+CARDS'; got {describe(data)}",
            move=data[:60],
        )
    give_codes = [code.strip() for code in given.split("+")]
    take = [parse_card(code.strip()) for code in taken.split("+")]
    if kind == "sacrifice":
        if len(give_codes) != 1:
            raise InvalidMoveError(
                f"a sacrifice names one member: {describe(data)}", move=data[:60]
            )
        give = [parse_member(give_codes[0])]
    else:
        give = [parse_card(code) for code in give_codes]
    cards = give + take
    if len(set(cards)) != len(cards):
        raise InvalidMoveError(f"a card appears twice in {describe(data)}", move=data[:60])
    return make_move(kind, give, take)


# -- setting up ----------------------------------------------------------------------------


def shuffled_deck(seed: str, rules: Rules, round_no: int) -> tuple[str, ...]:
    """The pile of a game (Vanguard: once per game) or of a round (Classic Lobo)."""
    if rules.classic:
        rng = Rng.derive("lobo", seed, "round", round_no)
    else:
        rng = Rng.derive("lobo", seed, "deck")
    return tuple(rng.shuffled(rules.deck))


def new_state(seed: str, rules: Rules) -> LoboState:
    state = LoboState(
        seed=seed,
        rules=rules,
        round=1,
        phase=PLAY,
        pile=shuffled_deck(seed, rules, 1),
        hand=(),
        wolf=(),
        reserve=(),
        discard=(),
        members=() if rules.classic else (True, True, True),
        final=False,
    )
    return start_round(state)


def deal(pile: Sequence[str], wolf_first: bool) -> tuple[list[str], list[str], int]:
    """(hand, wolf, cards used): one card at a time, alternating, until 4 + 4 or no pile."""
    hand: list[str] = []
    wolf: list[str] = []
    order = (wolf, hand) if wolf_first else (hand, wolf)
    used = 0
    while used < len(pile) and used < 2 * HAND_SIZE:
        order[used % 2].append(pile[used])
        used += 1
    return hand, wolf, used


def start_round(state: LoboState) -> LoboState:
    """Deal the round of ``state.round`` from ``state.pile`` (hands must be empty)."""
    rules = state.rules
    pile = state.pile
    final = False
    if not rules.classic and rules.final_trigger == BEFORE_DEAL and len(pile) <= FINAL_PILE:
        final = True
    hand, wolf, used = deal(pile, rules.short_deal_order == WOLF_FIRST)
    pile = pile[used:]
    if not rules.classic and (
        not pile or (rules.final_trigger == AFTER_DEAL and len(pile) <= FINAL_PILE)
    ):
        final = True
    state = replace(
        state, phase=PLAY, pile=pile, hand=sorted_cards(hand), wolf=sorted_cards(wolf), final=final
    )
    if not state.wolf:
        return round_won(state)
    return state


# -- legal moves ---------------------------------------------------------------------------


def pile_draws(state: LoboState) -> bool:
    """Whether the pile is drawn from in this round (never in a final round)."""
    return not state.final


def legal_moves(state: LoboState) -> list[Move]:
    if state.phase == CHOICE:
        return choice_moves(state)
    if state.phase != PLAY:
        return []
    return [*capture_moves(state), FOLD]


def choice_moves(state: LoboState) -> list[Move]:
    out = [Move("reserve", (card,)) for card in state.hand]
    out += [Move("revive", (MEMBERS[i],)) for i, up in enumerate(state.members) if not up]
    out.append(SKIP)
    return out


def capture_moves(state: LoboState) -> list[Move]:
    out: list[Move] = []
    pool = state.pool
    wolf = state.wolf
    for p in pool:
        for w in wolf:
            if RANK_OF[p] == RANK_OF[w]:
                out.append(Move("perfect", (p,), (w,)))
    wanted = {RANK_OF[w] for w in wolf}
    for group in subsets_by_total(pool, max(wanted), 2):
        value = total(group)
        if value in wanted:
            for w in wolf:
                if RANK_OF[w] == value:
                    out.append(make_move("sum", group, (w,)))
    if not state.final:
        out += _split_and_over(state)
    elif state.active >= 2 or (state.rules.reserve_is_wild_in_final and state.reserve):
        out += _final_extras(state)
    return out


def _split_and_over(state: LoboState) -> list[Move]:
    out: list[Move] = []
    left = len(state.pile)
    if not left:
        return out
    pool = state.pool
    top = max(RANK_OF[p] for p in pool) if pool else 0
    groups: dict[int, list[tuple[str, ...]]] = {}
    for group in subsets_by_total(state.wolf, top, 2):
        groups.setdefault(total(group), []).append(group)
    for p in pool:
        for group in groups.get(RANK_OF[p], ()):
            out.append(make_move("split", (p,), group))
    for p in pool:
        for w in state.wolf:
            diff = RANK_OF[p] - RANK_OF[w]
            if 0 < diff <= left:
                out.append(Move("over", (p,), (w,)))
    return out


def _final_extras(state: LoboState) -> list[Move]:
    out: list[Move] = []
    if state.active >= 2:
        for i, up in enumerate(state.members):
            if up:
                out += [Move("sacrifice", (MEMBERS[i],), (w,)) for w in state.wolf]
    if state.rules.reserve_is_wild_in_final:
        for r in state.reserve:
            out += [Move("wild", (r,), (w,)) for w in state.wolf]
    return out


def subsets_by_total(cards: Sequence[str], limit: int, at_least: int) -> Iterator[tuple[str, ...]]:
    """Every subset of ``cards`` (as given, by position) of ``at_least`` or more cards whose
    total is at most ``limit``; each subset once, in canonical move order."""
    items = sorted(cards, key=lambda c: -RANK_OF[c])

    def walk(start: int, chosen: list[str], room: int) -> Iterator[tuple[str, ...]]:
        if len(chosen) >= at_least:
            yield tuple(chosen)
        for i in range(start, len(items)):
            value = RANK_OF[items[i]]
            if value <= room:
                chosen.append(items[i])
                yield from walk(i + 1, chosen, room - value)
                chosen.pop()

    yield from walk(0, [], limit)


# -- checking ------------------------------------------------------------------------------


def check_move(state: LoboState, move: Move) -> None:
    """Raise IllegalMoveError (with a reason and details) unless ``move`` is legal now."""
    if move.kind in CHOICES:
        _check_choice(state, move)
    elif move.kind == "fold":
        if state.phase != PLAY:
            raise IllegalMoveError(
                "choice_pending", "the round is won: choose reserve, revive or skip"
            )
    else:
        if state.phase != PLAY:
            raise IllegalMoveError(
                "choice_pending", "the round is won: choose reserve, revive or skip"
            )
        _check_capture(state, move)


def _check_choice(state: LoboState, move: Move) -> None:
    if state.rules.classic:
        raise IllegalMoveError("not_in_classic", f"Classic Lobo has no {move.kind}")
    if state.phase != CHOICE:
        raise IllegalMoveError(
            "no_choice_now", f"{move.kind} is only allowed just after a won round"
        )
    if move.kind == "reserve":
        card = move.give[0]
        if card not in state.hand:
            raise IllegalMoveError(
                "card_not_available", f"{card} is not in your hand", card=card, where="hand"
            )
    elif move.kind == "revive":
        member = move.give[0]
        if state.members[MEMBERS.index(member)]:
            raise IllegalMoveError(
                "member_already_active", f"{member} is already face up", card=member
            )


def _check_capture(state: LoboState, move: Move) -> None:
    kind = move.kind
    rules = state.rules
    if kind in ("sacrifice", "wild") and rules.classic:
        raise IllegalMoveError("not_in_classic", f"Classic Lobo has no {kind}")
    _check_cards_present(state, move)
    _check_counts(move)
    if kind in ("split", "over") and state.final:
        raise IllegalMoveError("final_round_forbidden", f"no {kind} in the final round", kind=kind)
    if kind in ("sacrifice", "wild") and not state.final:
        raise IllegalMoveError(
            "not_final_round", f"a {kind} is only allowed in the final round", kind=kind
        )
    if kind == "sacrifice":
        _check_sacrifice(state, move)
    elif kind == "wild":
        _check_wild(state, move)
    else:
        _check_arithmetic(state, move)


def _check_cards_present(state: LoboState, move: Move) -> None:
    if move.kind == "sacrifice":
        pass
    elif move.kind == "wild":
        for card in move.give:
            if card not in state.reserve:
                raise IllegalMoveError(
                    "card_not_available",
                    f"{card} is not in your reserve",
                    card=card,
                    where="reserve",
                )
    else:
        pool = state.pool
        for card in move.give:
            if card not in pool:
                raise IllegalMoveError(
                    "card_not_available",
                    f"{card} is not in your hand or reserve",
                    card=card,
                    where="hand",
                )
    for card in move.take:
        if card not in state.wolf:
            raise IllegalMoveError(
                "card_not_available", f"{card} is not in the Wolf's hand", card=card, where="wolf"
            )


COUNT_RULES = {
    # kind: (give at least, give at most, take at least, take at most, text)
    "perfect": (1, 1, 1, 1, "a perfect is one of your cards for one Wolf card"),
    "sum": (2, 99, 1, 1, "a sum is two or more of your cards for one Wolf card"),
    "split": (1, 1, 2, 99, "a split is one of your cards for two or more Wolf cards"),
    "over": (1, 1, 1, 1, "an over is one of your cards for one Wolf card"),
    "sacrifice": (1, 1, 1, 1, "a sacrifice is one member for one Wolf card"),
    "wild": (1, 1, 1, 1, "a wild is one reserve card for one Wolf card"),
}


def _check_counts(move: Move) -> None:
    give_min, give_max, take_min, take_max, text = COUNT_RULES[move.kind]
    if not (give_min <= len(move.give) <= give_max and take_min <= len(move.take) <= take_max):
        raise IllegalMoveError(
            "wrong_card_count", text, kind=move.kind, give=len(move.give), take=len(move.take)
        )


def _check_arithmetic(state: LoboState, move: Move) -> None:
    kind = move.kind
    mine = total(move.give)
    theirs = total(move.take)
    if kind == "perfect" and mine != theirs:
        raise IllegalMoveError("rank_mismatch", f"{mine} is not {theirs}", mine=mine, theirs=theirs)
    # ``values`` (the card values in move order) and ``sum`` ("4 + 3") let a page say exactly
    # what the engine says, in any language: "4 + 3 is 7, not 8"
    if kind == "sum" and mine != theirs:
        raise IllegalMoveError(
            "sum_mismatch",
            f"{spell_sum(move.give)} is {mine}, not {theirs}",
            total=mine,
            target=theirs,
            sum=spell_sum(move.give),
            values=[RANK_OF[c] for c in move_order(move.give)],
        )
    if kind == "split" and mine != theirs:
        raise IllegalMoveError(
            "split_mismatch",
            f"{spell_sum(move.take)} is {theirs}, not {mine}",
            total=theirs,
            target=mine,
            sum=spell_sum(move.take),
            values=[RANK_OF[c] for c in move_order(move.take)],
        )
    if kind == "over" and mine <= theirs:
        raise IllegalMoveError(
            "not_over", f"{mine} is not more than {theirs}", mine=mine, theirs=theirs
        )
    needed = 1 if kind == "split" else mine - theirs if kind == "over" else 0
    if needed > len(state.pile):
        raise IllegalMoveError(
            "not_enough_cards",
            f"the Wolf would draw {needed} card{'s' if needed > 1 else ''} "
            f"but the pile has {len(state.pile)}",
            needed=needed,
            left=len(state.pile),
        )


def _check_sacrifice(state: LoboState, move: Move) -> None:
    member = move.give[0]
    if not state.members[MEMBERS.index(member)]:
        raise IllegalMoveError("member_not_active", f"{member} is face down", card=member)
    if state.active < 2:
        raise IllegalMoveError(
            "must_keep_a_member", "one party member must stay face up", active=state.active
        )


def _check_wild(state: LoboState, move: Move) -> None:
    if not state.rules.reserve_is_wild_in_final:
        raise IllegalMoveError(
            "reserve_not_wild", "reserve cards are not wild in this game (an option)"
        )


# -- playing -------------------------------------------------------------------------------


def play(state: LoboState, move: Move) -> LoboState:
    """The state after a checked move."""
    if move.kind == "fold":
        return round_lost(state)
    if move.kind in CHOICES:
        return _play_choice(state, move)
    return _play_capture(state, move)


def _without(cards: tuple[str, ...], gone: Sequence[str]) -> tuple[str, ...]:
    return tuple(c for c in cards if c not in gone)


def _play_capture(state: LoboState, move: Move) -> LoboState:
    members = state.members
    discard = state.discard + move.take
    if move.kind == "sacrifice":
        index = MEMBERS.index(move.give[0])
        members = members[:index] + (False,) + members[index + 1 :]
    else:
        discard = state.discard + move.give + move.take
    hand = _without(state.hand, move.give)
    reserve = _without(state.reserve, move.give)
    wolf = _without(state.wolf, move.take)
    pile = state.pile
    if pile_draws(state):
        if move.kind in ("perfect", "sum") and pile:
            hand, pile = sorted_cards((*hand, pile[0])), pile[1:]
        elif move.kind == "split":
            wolf, pile = sorted_cards((*wolf, pile[0])), pile[1:]
        elif move.kind == "over":
            drawn = total(move.give) - total(move.take)
            wolf, pile = sorted_cards(wolf + pile[:drawn]), pile[drawn:]
    final = state.final or (not state.rules.classic and not pile)
    state = replace(
        state,
        hand=hand,
        reserve=reserve,
        wolf=wolf,
        pile=pile,
        discard=discard,
        members=members,
        final=final,
    )
    if not wolf:
        return round_won(state)
    return state


def _play_choice(state: LoboState, move: Move) -> LoboState:
    if move.kind == "reserve":
        card = move.give[0]
        state = replace(
            state,
            hand=_without(state.hand, (card,)),
            reserve=sorted_cards((*state.reserve, card)),
        )
    elif move.kind == "revive":
        index = MEMBERS.index(move.give[0])
        state = replace(state, members=state.members[:index] + (True,) + state.members[index + 1 :])
    return next_round(state)


def final_score(state: LoboState) -> dict[str, int]:
    """The parts of the score of a won Vanguard game (V-15)."""
    hand = total(state.hand)
    members = MEMBER_POINTS * state.active
    reserve = total(state.reserve) if state.rules.score_includes_reserve else 0
    return {"hand": hand, "members": members, "reserve": reserve, "score": hand + members + reserve}


def round_won(state: LoboState) -> LoboState:
    if state.rules.classic:
        points = total(state.hand)
        scores = (state.scores[0] + points, state.scores[1])
        state = _record(state, True, 0, points)
        state = replace(state, scores=scores)
        if scores[0] >= state.rules.classic_target:
            return replace(state, phase=OVER, result="won")
        return next_round(state)
    if state.final:
        state = _record(state, True, 0, final_score(state)["score"])
        return replace(state, phase=OVER, result="won")
    return replace(_record(state, True, 0, 0), phase=CHOICE)


def round_lost(state: LoboState) -> LoboState:
    rules = state.rules
    left = len(state.wolf)
    if rules.classic:
        points = total(state.wolf)
        scores = (state.scores[0], state.scores[1] + points)
        state = replace(_record(state, False, 0, points), scores=scores)
        if scores[1] >= rules.classic_target:
            return replace(state, phase=OVER, result="lost")
        return next_round(state)
    if state.final:
        return replace(_record(state, False, 0, 0), phase=OVER, result="lost")
    lost = min(left, state.active)
    members = list(state.members)
    for _ in range(lost):
        members[members.index(True)] = False
    state = replace(_record(state, False, lost, 0), members=tuple(members))
    if not any(members):
        return replace(state, phase=OVER, result="lost")
    return next_round(state)


def _record(state: LoboState, won: bool, members_lost: int, points: int) -> LoboState:
    end = RoundEnd(state.round, won, len(state.wolf), members_lost, points)
    return replace(state, history=(*state.history, end))


def next_round(state: LoboState) -> LoboState:
    number = state.round + 1
    if state.rules.classic:
        state = replace(
            state,
            round=number,
            pile=shuffled_deck(state.seed, state.rules, number),
            hand=(),
            wolf=(),
            discard=(),
        )
    else:
        state = replace(
            state, round=number, discard=state.discard + state.hand + state.wolf, hand=(), wolf=()
        )
    return start_round(state)


def all_cards(state: LoboState) -> list[str]:
    """Every card of the game: the number cards wherever they are, then the members."""
    cards = [*state.pile, *state.hand, *state.wolf, *state.reserve, *state.discard]
    if not state.rules.classic:
        cards += MEMBERS
    return cards


def make_position(
    *,
    hand: Sequence[str],
    wolf: Sequence[str],
    pile: Sequence[str],
    reserve: Sequence[str] = (),
    members: Sequence[bool] = (True, True, True),
    final: bool | None = None,
    rules: Rules | None = None,
    seed: str = "POSITION",
    round_no: int = 1,
    phase: str = PLAY,
) -> LoboState:
    """A position for tests and puzzles: every other card of the deck is in the discard pile.

    ``final`` defaults to whether the pile is empty (pass ``final=True`` for a final round
    that still has cards in the pile, as ``final_trigger = AFTER_DEAL`` leaves them)."""
    rules = rules or Rules()
    used = [*hand, *wolf, *pile, *reserve]
    discard = tuple(c for c in rules.deck if c not in used)
    return LoboState(
        seed=seed,
        rules=rules,
        round=round_no,
        phase=phase,
        pile=tuple(pile),
        hand=sorted_cards(hand),
        wolf=sorted_cards(wolf),
        reserve=sorted_cards(reserve),
        discard=discard,
        members=() if rules.classic else tuple(members),
        final=(not pile and not rules.classic) if final is None else final,
    )
