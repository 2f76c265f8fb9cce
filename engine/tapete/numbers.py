"""The one strict reader of every number that comes from outside the engine: a request, a state,
a game record, a link's option, a move's text.

Glossary:

whole number  a JSON integer (never a bool, never a float such as ``2.0``) in a stated range
number text   the decimal text of a whole number, as a link or a move carries it: ASCII digits
              with an optional leading ``-``, at most ``MAX_DIGITS`` of them; never an exponent
              (``1e5``), a sign ``+``, spaces, underscores or other scripts' digits (``²``, ``٣``)
fraction      a whole number, or the text ``"a/b"`` of two number texts (``b`` > 0), as
              Rummikub's shared points are kept
safe          within ``±SAFE`` (2**53 - 1): what a JavaScript number holds exactly; ``loads``
              refuses any JSON integer outside it, so no request carries a number the page
              could not have sent

Each reader answers the value, or ``None`` when the input is not what it expects; the caller
raises the coded error that names the place (``bad_state`` with its path, ``bad_option`` with
the option, ``invalid_move`` quoting the move). ``loads`` parses a request's JSON text: it
refuses ``NaN``, ``Infinity``, floats that overflow (``1e999``) and integers beyond ``SAFE``
with ``ValueError``, so nothing it answers can make ``json.dumps(..., allow_nan=False)`` fail.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported on first use: the worker starts without it
    from fractions import Fraction

SAFE = 2**53 - 1
MAX_DIGITS = 16  # SAFE has 16 digits
_NUMBER_TEXT = re.compile(r"-?[0-9]{1,16}")
_FRACTION_TEXT = re.compile(r"(-?[0-9]{1,16})/([0-9]{1,16})")


def whole(value: Any, low: int, high: int) -> int | None:
    """``value`` if it is a JSON integer from ``low`` to ``high``, else None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if low <= value <= high else None


def whole_text(value: Any, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high`` given as an integer or as its number text."""
    if isinstance(value, str):
        if _NUMBER_TEXT.fullmatch(value) is None:
            return None
        value = int(value)
    return whole(value, low, high)


def fraction(value: Any, low: int, high: int) -> Fraction | None:
    """A whole number or an ``"a/b"`` text, from ``low`` to ``high``, else None."""
    from fractions import Fraction

    number = whole_text(value, -SAFE, SAFE)
    if number is not None:
        result = Fraction(number)
    elif isinstance(value, str) and (match := _FRACTION_TEXT.fullmatch(value)):
        numerator, denominator = int(match[1]), int(match[2])
        if denominator == 0:
            return None
        result = Fraction(numerator, denominator)
    else:
        return None
    return result if low <= result <= high else None


def _refuse_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


def _safe_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS or abs(number := int(text)) > SAFE:
        raise ValueError(f"the integer {text[:24]}{'...' if len(text) > 24 else ''} is too large")
    return number


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"the number {text[:24]} is too large")
    return number


def loads(text: str) -> Any:
    """JSON text to a value, refusing what a browser's ``JSON.stringify`` never writes (NaN,
    Infinity) and numbers that a JavaScript number cannot hold (``ValueError``)."""
    return json.loads(
        text, parse_constant=_refuse_constant, parse_int=_safe_int, parse_float=_finite_float
    )
