"""Bots for The Mind that play by timing, seeing only their own seat's view.

Both bots keep one plan per *situation* (a level, a pile length, a phase): the driver may ask them again
and again, and they answer the same time until something visible changes. Noise is drawn once per
situation from the bot's own seeded generator, so a game is reproducible from its seeds.
"""

from __future__ import annotations

import math
import random
from typing import Any

from mindtable.core.bots import Decision, Observation


class _TimingBot:
    """Shared behaviour: get ready, agree to every proposal, call stop when holding a card that was passed."""

    def __init__(self, seat: int, seed: int = 0, reaction_ms: int = 300, ready_ms: int = 500) -> None:
        if reaction_ms < 0 or ready_ms < 0:
            raise ValueError("reaction_ms and ready_ms must be >= 0")
        self.seat = seat
        self.reaction_ms = reaction_ms
        self.ready_ms = ready_ms
        self._random = random.Random(f"{type(self).__name__}/{seed}/{seat}")
        self._situation: tuple[Any, ...] | None = None
        self._since = 0
        self._draw = 0.0
        self._stop_called: tuple[Any, ...] | None = None

    def decide(self, observation: Observation) -> Decision | None:
        view = observation.view
        legal = [action["type"] for action in observation.legal_actions]  # a handful: a list is quicker than a set
        situation = (view["level"], view["mode"], len(view["pile"]), view["phase"], view["lives"], view["stars"])
        if situation != self._situation:
            self._situation = situation
            self._since = observation.now
            self._draw = self._new_draw()
        if "agree" in legal:
            return Decision({"type": "agree"}, observation.now + self.reaction_ms)
        if "ready" in legal:
            return Decision({"type": "ready"}, self._since + self.ready_ms)
        if "stop" in legal and self._stop_called != situation:
            # Only a card still in hand was passed over; set-aside cards below the pile are expected.
            hand = view["hand"] or []
            highest = view["highest_played"]
            if hand and highest is not None and hand[0] < highest:
                self._stop_called = situation
                return Decision({"type": "stop"}, self._since + self.reaction_ms)
        if "play" in legal:
            wait = self._wait(view)
            if wait is not None:
                return Decision({"type": "play"}, self._since + wait)
        return None

    def _new_draw(self) -> float:
        return 0.0

    def _wait(self, view: dict[str, Any]) -> int | None:
        raise NotImplementedError


def my_lowest(view: dict[str, Any], seat: int) -> tuple[int, bool]:
    """The card this seat must play next and whether it is one of its set-aside cards."""
    hand = view["hand"] or []
    aside = view["set_aside"][seat]
    if aside and (not hand or aside[0] < hand[0]):
        return aside[0], True
    return hand[0], False


class ProportionalBot(_TimingBot):
    """Waits ``tempo_ms`` per step of the gap between the highest card seen and its lowest card.

    The wait is ``reaction_ms + tempo_ms * gap * exp(noise * Z)`` with ``Z`` standard normal, counted from
    the moment the situation last changed. Set-aside cards are face up, so the bot waits while a lower one
    is out and plays its own at once when it is the lowest. In blind mode nothing is visible: it counts
    from the start of the level (gap = its card).
    """

    def __init__(
        self,
        seat: int,
        seed: int = 0,
        tempo_ms: float = 250.0,
        noise: float = 0.25,
        reaction_ms: int = 300,
        ready_ms: int = 500,
    ) -> None:
        super().__init__(seat, seed, reaction_ms, ready_ms)
        if tempo_ms <= 0 or noise < 0:
            raise ValueError("tempo_ms must be > 0 and noise >= 0")
        self.tempo_ms = tempo_ms
        self.noise = noise

    def _new_draw(self) -> float:
        return math.exp(self.noise * self._random.gauss(0.0, 1.0)) if self.noise else 1.0

    def _wait(self, view: dict[str, Any]) -> int | None:
        card, aside = my_lowest(view, self.seat)
        for seat_cards in view["set_aside"]:
            if seat_cards and seat_cards[0] < card:  # set-aside cards are kept in order: the first is the lowest
                return None
        if aside:
            return self.reaction_ms
        seen = 0 if view["mode"] == "blind" else view["highest_played"] or 0
        gap = max(card - seen, 0)
        return round(self.reaction_ms + self.tempo_ms * gap * self._draw)


class RandomTimingBot(_TimingBot):
    """A baseline that ignores its cards: plays its lowest card after a uniform wait of up to ``max_wait_ms``."""

    def __init__(
        self, seat: int, seed: int = 0, max_wait_ms: int = 10_000, reaction_ms: int = 300, ready_ms: int = 500
    ) -> None:
        super().__init__(seat, seed, reaction_ms, ready_ms)
        if max_wait_ms <= 0:
            raise ValueError("max_wait_ms must be > 0")
        self.max_wait_ms = max_wait_ms

    def _new_draw(self) -> float:
        return self._random.random()

    def _wait(self, view: dict[str, Any]) -> int | None:
        return round(self.reaction_ms + self.max_wait_ms * self._draw)
