"""The ``heuristic`` level (tapete/wizard/counting.py): its bids count the hand's shape, its
cards count the round, and it plays the level's moves (legal and fair: tests/test_bots.py)."""

from __future__ import annotations

from typing import Any

from tapete.wizard import GAME, counting
from tapete.wizard.bots import simple_bot
from tapete.wizard.levels import BOTS


def view(
    hand: list[str], trick: list[str], *, bid: int, won: int = 0, **more: Any
) -> dict[str, Any]:
    """Seat 0's view in round ``len(hand)`` of a 4-player game, trump red."""
    base: dict[str, Any] = {
        "players": 4,
        "seat": 0,
        "round": len(hand),
        "trump": "R",
        "trump_card": "R2",
        "hand": hand,
        "bids": [bid, 1, 1, 1],
        "tricks_won": [won, 0, 0, 0],
        "trick": [{"seat": 4 - len(trick) + i, "card": c} for i, c in enumerate(trick)],
        "played": [],
    }
    base.update(more)
    return base


def test_the_heuristic_level_is_the_counting_bot() -> None:
    assert BOTS["heuristic"] is counting.counting_bot is not simple_bot


def test_a_made_bid_ducks_with_the_dearest_loser_and_sheds_a_forced_trick() -> None:
    # bid made; B9 loses to B12, B11 too: the dearer B11 goes
    assert counting.choose_card(view(["B3", "B11", "G5"], ["B12"], bid=0), ["B3", "B11"]) == "B11"
    # last to play, every card wins: shed the dearest (the trick is taken anyway)
    trick = ["G2", "G3", "G4"]
    assert (
        counting.choose_card(view(["G9", "G13", "B1"], trick, bid=1, won=1), ["G9", "G13"]) == "G13"
    )


def test_a_needed_trick_is_taken_with_a_safe_cheap_card() -> None:
    # R13 is the top trump with the other Wizards seen: it cannot be beaten after it; the
    # simple rules would take the trick too, but the counted rules know the Wizards are gone
    gone = [[{"seat": s, "card": f"Z{s + 1}"} for s in range(4)]]
    v = view(["R13", "B4", "G7"], ["B9"], bid=2, played=gone, hand_sizes=[3, 3, 3, 3])
    assert counting.choose_card(v, ["B4"]) == "B4"  # must follow
    v = view(["R13", "G4", "G7"], ["B9"], bid=2, played=gone)
    assert counting.choose_card(v, ["R13", "G4", "G7"]) == "R13"


def test_top_trumps_and_trump_length_raise_the_bid() -> None:
    short = view(["R13", "R12", "B2", "G3", "Y4"], [], bid=0)
    long = view(["R13", "R12", "R5", "R4", "R3"], [], bid=0)
    assert counting.bid_estimate(short) > 1.7  # the top two trumps nearly always take
    assert counting.bid_estimate(long) > counting.bid_estimate(short) + 1.0


def test_the_dealer_leans_toward_the_tricks_left_over() -> None:
    hand = ["R9", "B13", "G2", "Y3"]  # about 1.2 tricks
    assert 1.1 < counting.bid_estimate(view(hand, [], bid=0)) < 1.3
    legal = [0, 1, 2, 3, 4]
    assert counting.choose_bid(view(hand, [], bid=0, bids=[None, 0, 0, 0]), legal) == 2
    assert counting.choose_bid(view(hand, [], bid=0, bids=[None, 2, 1, 1]), legal) == 1
    assert counting.choose_bid(view(hand, [], bid=0, bids=[None, 1, 1, None]), legal) == 1


def test_the_heuristic_plays_whole_games() -> None:
    state = GAME.new_game("COUNT1", None, 4)
    while (seat := GAME.to_move(state)) is not None:
        move = counting.counting_bot(GAME, state, seat, None)  # type: ignore[arg-type]
        GAME.check(state, seat, move)
        state = GAME.apply(state, seat, move)
    assert GAME.outcome(state) is not None
