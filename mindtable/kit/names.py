"""How bots are named at every table (lobby, table, terminal): a first name and "(bot)", by seat.

>>> bot_name(0), bot_name(2)
('Ada (bot)', 'Grace (bot)')
>>> is_bot_name("Ada (bot)"), is_bot_name("Ada")
(True, False)
"""

from __future__ import annotations

#: First names of bots, by seat (computing pioneers); seat ``n`` is named ``BOT_NAMES[n % len(BOT_NAMES)]``.
BOT_NAMES = ("Ada", "Alan", "Grace", "Kurt", "Emmy", "Claude", "Edsger", "Barbara")
SUFFIX = " (bot)"


def bot_name(seat: int) -> str:
    """The name a bot at ``seat`` goes by, e.g. ``"Ada (bot)"``."""
    return BOT_NAMES[seat % len(BOT_NAMES)] + SUFFIX


def is_bot_name(name: str) -> bool:
    return name.endswith(SUFFIX)
