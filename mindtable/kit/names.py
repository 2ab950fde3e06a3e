"""How bots are named at every table (lobby, table, terminal): a first name and "(bot)", by seat.

>>> bot_name(0), bot_name(2)
('Ada (bot)', 'Grace (bot)')
>>> is_bot_name("Ada (bot)"), is_bot_name("Ada")
(True, False)

A terminal calls people by their place at the table, numbered from 1 in its language, and bots by name:

>>> [seat_name(seat, humans=[0, 1], player="Player {n}".format) for seat in range(3)]
['Player 1', 'Player 2', 'Grace (bot)']
>>> seat_name(1, humans=[], player="Jugador {n}".format)  # a game of bots only: every seat by its number
'Jugador 2'
"""

from __future__ import annotations

from collections.abc import Callable, Collection

#: First names of bots, by seat (computing pioneers); seat ``n`` is named ``BOT_NAMES[n % len(BOT_NAMES)]``.
BOT_NAMES = ("Ada", "Alan", "Grace", "Kurt", "Emmy", "Claude", "Edsger", "Barbara")
SUFFIX = " (bot)"


def bot_name(seat: int) -> str:
    """The name a bot at ``seat`` goes by, e.g. ``"Ada (bot)"``."""
    return BOT_NAMES[seat % len(BOT_NAMES)] + SUFFIX


def is_bot_name(name: str) -> bool:
    return name.endswith(SUFFIX)


def seat_name(seat: int, humans: Collection[int], player: Callable[..., str]) -> str:
    """What a terminal calls the player at ``seat``: a person (a seat in ``humans``) "Player N", numbered from 1
    (``player(n=N)`` says it in the terminal's language), a bot by its name ("Grace (bot)"); when nobody at the
    keyboard plays (``humans`` empty), every seat by its number."""
    if seat in humans or not humans:
        return player(n=seat + 1)
    return bot_name(seat)
