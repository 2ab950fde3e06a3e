"""A bot's pace at a table of people: a think time before each step, and time to read what a person reads.

A bot decides at once; people need to see what it does. A room gives its bots a *pace* (``off``, ``normal``,
``slow``, or a number of seconds), and :class:`PacedBot` turns it into time as data: the decision it returns
says *when* (``Decision.at``), the think time (plus the reading time of what the game says a person reads
before that action, :meth:`mindtable.core.game.Game.read_before` — a question before answering it) after the
moment the bot first saw the situation. The room's driver plays the action at that moment unless something
happens first, so a pace is a deadline like any other: a virtual clock only moves on, nothing sleeps.
``mindtable simulate``, :func:`mindtable.core.driver.play_out` and the Python API build bare bots: pace 0.

>>> from mindtable.core.bots import Decision, Observation
>>> class Answerer:
...     seat = 0
...     def decide(self, observation):
...         return Decision({"type": "answer"})
>>> bot = PacedBot(Answerer(), pace_of("normal"), read=lambda view, action: view["question"])
>>> view = {"question": "Which planet is nearest the Sun?"}
>>> bot.decide(Observation(0, view, [{"type": "answer", "seat": 0}], now=10_000)).at
12780
>>> bot.decide(Observation(0, view, [{"type": "answer", "seat": 0}], now=11_000)).at  # the same situation
12780
>>> pace_of("off").delay_ms("anything"), pace_of(2).think_ms
(0, 2000)
"""

from __future__ import annotations

import marshal
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mindtable.core.bots import Bot, Decision, Observation
from mindtable.core.errors import InvalidOptions

#: The named paces, in the order a lobby offers them.
PACE_NAMES = ("off", "normal", "slow")
#: The most seconds a pace given as a number may think over each step.
MOST_SECONDS = 60


@dataclass(frozen=True)
class Pace:
    """``think_ms`` before every step; ``read_ms_per_char`` for each character read first, up to ``most_read_ms``."""

    think_ms: int
    read_ms_per_char: float = 0.0
    most_read_ms: int = 0

    def delay_ms(self, read: str = "") -> int:
        """How long after seeing the situation the bot acts, having read ``read``."""
        if not self.think_ms and not self.read_ms_per_char:
            return 0
        reading = min(self.most_read_ms, round(len(read.strip()) * self.read_ms_per_char))
        return self.think_ms + max(reading, 0)

    @property
    def off(self) -> bool:
        return not self.think_ms and not self.read_ms_per_char


#: ``normal``: 1.5 s over each step, and a question read at about 25 characters a second (at most 8 s more).
NORMAL = Pace(1500, 40.0, 8000)
PACES: Mapping[str, Pace] = {"off": Pace(0), "normal": NORMAL, "slow": Pace(3000, 70.0, 15_000)}


def pace_of(value: Any) -> Pace:
    """The pace named ``value`` (``off``, ``normal``, ``slow``), or given as the seconds a bot thinks over each
    step (0 to 60; it reads in proportion, as ``normal`` does for its 1.5 s). Anything else raises
    :class:`~mindtable.core.errors.InvalidOptions` saying what is allowed.

    >>> pace_of(0.3)
    Pace(think_ms=300, read_ms_per_char=8.0, most_read_ms=1600)
    >>> pace_of("fast")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mindtable.core.errors.InvalidOptions: bot_pace must be off, normal, slow or a number of seconds ..., got 'fast'
    """
    if isinstance(value, str) and value in PACES:
        return PACES[value]
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or not 0 <= value <= MOST_SECONDS:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise InvalidOptions(
            f"bot_pace must be {', '.join(PACE_NAMES[:-1])}, {PACE_NAMES[-1]} or a number of seconds from 0 to "
            f"{MOST_SECONDS}, got {shown}"
        )
    scale = value * 1000 / NORMAL.think_ms
    return Pace(round(value * 1000), NORMAL.read_ms_per_char * scale, round(NORMAL.most_read_ms * scale))


def _situation(observation: Observation) -> Any:
    """What the bot sees, as a value cheap to compare: its legal actions and its view."""
    try:
        return marshal.dumps((observation.legal_actions, observation.view))
    except ValueError:  # not plain JSON-like data: compare the text
        return repr((observation.legal_actions, observation.view))


#: A paced bot acts at least this long before the match's next deadline (the answer's time, a game clock).
BEFORE_DEADLINE_MS = 1000


class PacedBot:
    """``bot`` at a table of people: each decision comes ``pace.delay_ms(read(view, action))`` after the moment
    the bot first saw the situation (its view and legal actions) — or later, if the bot itself asks for later.
    Asked again about the same situation (a room asks after anything happens), it keeps that first moment.

    The pace never makes a bot miss a deadline: with ``deadline`` (the match's next deadline, ms, or ``None``) it
    acts :data:`BEFORE_DEADLINE_MS` before it at the latest (a Quote 5 on a 15-second clock, read slowly)."""

    def __init__(
        self,
        bot: Bot,
        pace: Pace,
        read: Callable[[dict[str, Any], dict[str, Any]], str] | None = None,
        deadline: Callable[[], int | None] | None = None,
    ):
        self.inner = bot
        self.seat = bot.seat
        self.pace = pace
        self.read = read
        self.deadline = deadline
        self._situation: Any = None
        self._since = 0

    def decide(self, observation: Observation) -> Decision | None:
        decision = self.inner.decide(observation)
        if decision is None:
            self._situation = None
            return None
        situation = _situation(observation)
        if situation != self._situation:
            self._situation = situation
            self._since = observation.now
        text = self.read(observation.view, decision.action) if self.read is not None else ""
        due = self._since + self.pace.delay_ms(text or "")
        limit = self.deadline() if self.deadline is not None else None
        if limit is not None:
            due = min(due, max(observation.now, limit - BEFORE_DEADLINE_MS))
        wanted = observation.now if decision.at is None else decision.at
        return decision if wanted >= due else Decision(decision.action, due)
