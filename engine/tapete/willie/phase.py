"""The check of one meld phase, as one atomic end state (SPEC.md 1.3 "Meld phase").

Glossary:

old table   the melds at the start of the phase; new table: the melds the move proposes
played      the cards the move says left the hand (``from_hand``)
real card   the number card a wild declares; it *frees* the wild when it is on the new table
kept wild   an old wild whose token (figure and declaration) is still on the new table
freed wild  an old wild that is not kept; allowed only when its real card is on the new table

The conditions, each with the reason key of the error it raises:

1. at least one card leaves the hand (``no_card_from_hand``), and only cards of the hand
   (``card_not_in_hand``);
2. the new table holds exactly the old table's cards plus the played ones: an old table card
   may not vanish (``table_card_missing``; ``freed_wild_unplaced`` when it is a figure that was
   freed), a played card must be on the table (``played_card_missing``), and nothing else may
   appear (``unaccounted_card``);
3. every meld is valid (the reasons of :mod:`tapete.willie.melds`; the error's ``meld`` (also
   ``index``) is the meld's position in the new table and ``cards`` its codes);
4. a wild keeps its declaration unless its real card is on the new table (``wild_changed``;
   ``wild_not_freed`` when the figure was taken into a Willie);
5. with ``freed_wild_must_change_meld``, a freed wild may not end in the meld of the card that
   freed it (``freed_wild_same_meld``).

Copies of a figure share a code, so a figure is matched to an old wild by its token: the check
accepts a phase whenever some reading of the figures obeys the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import IllegalMoveError
from .cards import FIGURES, NUMBER_INDEX
from .melds import meld_problem, normalize_meld, options_of, token_card
from .moves import Table


def check_phase(
    table: Table,
    hand: Sequence[str],
    new_table: Table,
    from_hand: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> Table:
    """The new table in canonical form, or ``IllegalMoveError`` saying what is wrong."""
    check_played(hand, from_hand)
    check_cards(table, new_table, from_hand)
    rules = options_of(options)
    for i, meld in enumerate(new_table):
        problem = meld_problem(meld, **rules)
        if problem is not None:
            reason, message = problem
            raise IllegalMoveError(
                reason,
                f"meld {i + 1} ({' '.join(meld)}): {message}",
                meld=i,
                cards=list(meld),
                index=i,  # the same details under Rummikub's names, for a shared table UI
                why=reason,
            )
    check_wilds(table, new_table)
    if options is not None and options.get("freed_wild_must_change_meld"):
        check_freed_moved(table, new_table)
    return tuple(normalize_meld(meld) for meld in new_table)


def check_played(hand: Sequence[str], from_hand: Sequence[str]) -> None:
    if not from_hand:
        raise IllegalMoveError("no_card_from_hand", "a meld phase must play a card from the hand")
    missing = Counter(from_hand) - Counter(hand)
    if missing:
        card = sorted(missing)[0]
        raise IllegalMoveError("card_not_in_hand", f"{card} is not in your hand", card=card)


def table_cards(table: Table) -> Counter[str]:
    return Counter(token_card(t) for meld in table for t in meld)


def naturals_of(table: Table) -> set[str]:
    return {t for meld in table for t in meld if t in NUMBER_INDEX}


def wilds_of(table: Table) -> Counter[str]:
    return Counter(t for meld in table for t in meld if ":" in t)


def check_cards(table: Table, new_table: Table, from_hand: Sequence[str]) -> None:
    old = table_cards(table)
    new = table_cards(new_table)
    supply = old + Counter(from_hand)
    for card in sorted(supply - new):
        if new[card] < old[card]:
            freed = [
                w
                for w in sorted(wilds_of(table))
                if token_card(w) == card and w.partition(":")[2] in naturals_of(new_table)
            ]
            if freed:
                raise IllegalMoveError(
                    "freed_wild_unplaced",
                    f"the {card} freed from {freed[0]} must be placed again this turn",
                    card=card,
                )
            raise IllegalMoveError(
                "table_card_missing",
                f"{card} is on the table and must stay there: cards never leave the table",
                card=card,
            )
        raise IllegalMoveError(
            "played_card_missing", f"{card} is played from the hand but not on the table", card=card
        )
    extra = new - supply
    if extra:
        card = sorted(extra)[0]
        raise IllegalMoveError(
            "unaccounted_card",
            f"{card} is on the new table but neither on the old table nor played from the hand",
            card=card,
        )


def check_wilds(table: Table, new_table: Table) -> None:
    old = wilds_of(table)
    new = wilds_of(new_table)
    present = naturals_of(new_table)
    for wild in sorted(old):
        figure, _, real = wild.partition(":")
        if real in present or new[wild] >= old[wild]:
            continue
        plain_old = sum(t == figure for m in table for t in m)
        plain_new = sum(t == figure for m in new_table for t in m)
        if plain_new > plain_old:
            raise IllegalMoveError(
                "wild_not_freed",
                f"{wild} may join a Willie only after the real {real} frees it",
                wild=wild,
                card=real,
            )
        raise IllegalMoveError(
            "wild_changed",
            f"{wild} must keep standing for {real} until the real {real} takes its place",
            wild=wild,
            card=real,
        )


def check_freed_moved(table: Table, new_table: Table) -> None:
    """Option freed_wild_must_change_meld: match every freed wild to a figure of the new table
    that is not in the meld holding the card that freed it."""
    old = wilds_of(table)
    new = wilds_of(new_table)
    freed: list[str] = []
    for wild in sorted(old):
        freed += [wild] * max(0, old[wild] - new[wild])
    if not freed:
        return
    reserved = Counter({w: min(old[w], new[w]) for w in old})
    spots: list[tuple[str, int]] = []  # (token, meld) a freed figure may now be
    for m, meld in enumerate(new_table):
        for token in meld:
            if token_card(token) in FIGURES:
                if reserved[token] > 0:
                    reserved[token] -= 1
                    continue
                spots.append((token, m))
    owner: dict[int, int] = {}

    def allowed(wild: str, spot: tuple[str, int]) -> bool:
        token, m = spot
        real = wild.partition(":")[2]
        return token_card(token) == token_card(wild) and real not in new_table[m]

    def augment(f: int, seen: set[int]) -> bool:
        for k, spot in enumerate(spots):
            if k in seen or not allowed(freed[f], spot):
                continue
            seen.add(k)
            if k not in owner or augment(owner[k], seen):
                owner[k] = f
                return True
        return False

    for f, wild in enumerate(freed):
        if not augment(f, set()):
            raise IllegalMoveError(
                "freed_wild_same_meld",
                f"the figure freed from {wild} must go to another meld than its real card",
                wild=wild,
            )
