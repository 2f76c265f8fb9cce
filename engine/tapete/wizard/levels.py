"""The Wizard game as the engine serves it: the rules of :mod:`.game` with their bot levels.

The rules module knows no bot (the bots import it: :mod:`.ai` searches over its states and
:mod:`.bots` reads its views), so the levels and the hint are put together here, above both,
and :data:`GAME` is the object ``tapete.wizard.GAME`` hands out.

Glossary:

level   a bot's name on the new-game screen (``Wizard.bot_levels``); ``random`` is generic
BOTS    level -> bot ``(game, state, seat, rng) -> Move`` for the Wizard-specific levels
"""

from __future__ import annotations

from ..bots import BotFn
from .ai import easy_bot, hard_bot, hint, normal_bot
from .counting import counting_bot
from .game import Wizard

BOTS: dict[str, BotFn] = {
    "heuristic": counting_bot,
    "easy": easy_bot,
    "normal": normal_bot,
    "hard": hard_bot,
}

GAME = Wizard(BOTS, hint)
