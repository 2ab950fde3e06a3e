"""A NeuroRace bot that plans with the solver and acts at a human-like pace.

The bot sees only its seat's view: the up side of every centre tile, the tiles on the cards, its own hand
(both sides). Like a player who knows the tile set by heart, it infers the down side of a centre tile from
its up side when only one tile shows that side. Each time it is asked it plans the rest of its card with
:func:`~mindtable.games.neurorace.solver.solve` over the tiles it can reach and does the next step of the
plan: take a tile, turn it, place it, return it, take one back to unblock itself, or say stop.

Pace: every action takes ``1000 / actions_per_second`` ms; finding a tile takes longer the rarer it is
(``1 + bits / 2`` times, where ``bits = log2(120 / sides that fit the place)``), give or take ``jitter``.
``mistakes_per_task`` is the expected number of wrong tiles it lays per task (each placement is wrong with
probability ``mistakes_per_task / 7``); it does not notice them, so the check at "stop game" does.

>>> import mindtable
>>> from mindtable.core.driver import play_out
>>> match = mindtable.new_match("neurorace", players=1, seed=2, options={"last_level": 2})
>>> result = play_out(match, {0: SolverBot(seat=0, seed=2, actions_per_second=4)})
>>> result.reason
'master'
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from mindtable.core.bots import Decision, Observation
from mindtable.games.neurorace.components import TILES, Side
from mindtable.games.neurorace.solver import choices, solve
from mindtable.games.neurorace.tasks import PLACES, Task, parse_task


def _build_backs() -> dict[Side, Side | None]:
    backs: dict[Side, Side | None] = {}
    for a, b in TILES:
        for up, down in ((a, b), (b, a)):
            backs[up] = down if up not in backs or backs[up] == down else None
    return backs


#: Up side -> the down side, when only one tile shows that up side.
BACKS = _build_backs()


def _side(data: dict[str, Any]) -> Side:
    return (data["symbol"], data["colour"], data["number"])


@lru_cache(maxsize=256)
def _task(text: str) -> Task:
    return parse_task(text)


class SolverBot:
    """Plans with the solver; ``actions_per_second`` sets its speed, ``mistakes_per_task`` its accuracy."""

    def __init__(
        self,
        seat: int,
        seed: int = 0,
        actions_per_second: float = 2.0,
        mistakes_per_task: float = 0.0,
        start_delay_ms: int = 1000,
        jitter: float = 0.2,
    ) -> None:
        if actions_per_second <= 0:
            raise ValueError(f"actions_per_second must be > 0, got {actions_per_second}")
        if not 0 <= mistakes_per_task <= PLACES:
            raise ValueError(f"mistakes_per_task must be 0-{PLACES}, got {mistakes_per_task}")
        self.seat = seat
        self.seed = seed
        self.action_ms = 1000.0 / actions_per_second
        self.mistake_chance = mistakes_per_task / PLACES
        self.start_delay_ms = start_delay_ms
        self.jitter = jitter
        self._signature: Any = None
        self._since = 0
        self._step = 0
        self._mistake: tuple[int, int, int] | None = None  # round, slot, spot of a tile laid on purpose wrong

    # -- timing ----------------------------------------------------------------------------------------
    def _random(self, *key: Any) -> random.Random:
        return random.Random("/".join(map(str, ("neurorace-bot", self.seed, self.seat, self._step, *key))))

    def _at(self, factor: float, *key: Any) -> int:
        spread = self._random("delay", *key).uniform(1 - self.jitter, 1 + self.jitter)
        return self._since + max(1, round(self.action_ms * factor * spread))

    # -- deciding --------------------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision | None:
        view = observation.view
        me = view["players"][self.seat]
        signature = (view["phase"], view["round"], repr(me["slots"]), repr(me["hand"]), me["level"], view.get("ready"))
        if signature != self._signature:
            self._signature = signature
            self._since = observation.now
            self._step += 1
        legal = {action["type"] for action in observation.legal_actions}
        if view["phase"] == "ready":
            # A bot only ever marks itself ready; the round starts for everyone after the countdown.
            if "ready" in legal:
                return Decision({"type": "ready"}, self._since + self.start_delay_ms)
            if "start" in legal:  # a match set up under rules revision 2 or older (any seat says START)
                return Decision({"type": "start"}, self._since + self.start_delay_ms)
            return None
        if view["phase"] != "playing" or me["task"] is None:
            return None
        task = _task(me["task"])
        slots = me["slots"]
        filled = next((i for i, entry in enumerate(slots) if entry is None), PLACES)
        hand = me["hand"]
        if self._mistake is not None and (self._mistake[0] != view["round"] or filled > self._mistake[1]):
            self._mistake = None
        if hand is None and filled == PLACES:
            return Decision({"type": "stop"}, self._at(1.0, "stop"))
        if hand is not None and self._mistake == (view["round"], filled, hand["from_spot"]):
            return Decision({"type": "place", "slot": filled}, self._at(1.0, "place"))
        # The tile in hand comes first, so that the plan keeps it when it fits as well as any other.
        spots: list[int] = [-1] if hand is not None else []
        items: list[list[Side]] = [[_side(hand["up"]), _side(hand["down"])]] if hand is not None else []
        for entry in view["centre"]:
            up = _side(entry["up"])
            down = BACKS.get(up)
            spots.append(entry["spot"])
            items.append([up] if down is None else [up, down])
        previous = slots[filled - 1]["number"] if filled else None
        plan = solve(task, items, start=filled, previous=previous) if filled < PLACES else None
        if hand is not None:
            if plan and plan[0][0] == 0:
                if plan[0][1] == 0:
                    return Decision({"type": "place", "slot": filled}, self._at(1.0, "place"))
                return Decision({"type": "turn"}, self._at(1.0, "turn"))
            return Decision({"type": "return"}, self._at(1.0, "return"))
        if plan is None:
            if filled:
                return Decision({"type": "take_back"}, self._at(1.0, "take_back"))
            return None  # wait for tiles held by others to come back
        bits = math.log2(120 / max(1, choices(task)[filled]))
        factor = 1.0 + bits / 2
        rnd = self._random("mistake", view["round"], filled)
        if self.mistake_chance and rnd.random() < self.mistake_chance:
            place = task.places[filled]
            wrong = [spots[i] for i, options in enumerate(items) if not place.matches(options[0])]
            if wrong:
                spot = rnd.choice(wrong)
                self._mistake = (view["round"], filled, spot)
                return Decision({"type": "take", "spot": spot}, self._at(factor, "take"))
        return Decision({"type": "take", "spot": spots[plan[0][0]]}, self._at(factor, "take"))
