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

import _random
import math
import random
from functools import lru_cache
from hashlib import sha512
from itertools import compress, count
from operator import itemgetter, ne
from typing import Any

from mindtable.core.bots import Decision, Observation
from mindtable.games.neurorace.components import TILES, Side
from mindtable.games.neurorace.solver import candidates_by_place, choices, solve_candidates
from mindtable.games.neurorace.tasks import PLACES, Task, parse_task


def _build_backs() -> dict[Side, Side | None]:
    backs: dict[Side, Side | None] = {}
    for a, b in TILES:
        for up, down in ((a, b), (b, a)):
            backs[up] = down if up not in backs or backs[up] == down else None
    return backs


#: Up side -> the down side, when only one tile shows that up side.
BACKS = _build_backs()


_SEED = _random.Random.seed  # the generator's own seeding from an integer, below random.Random.seed


def _first_random(generator: random.Random, text: str) -> float:
    """``random.Random(text).random()``, from ``generator`` seeded again (speed: no generator made each
    time). It is seeded with the integer ``random.Random.seed`` derives from a text (version 2)."""
    data = text.encode()
    _SEED(generator, int.from_bytes(data + sha512(data).digest()))
    return generator.random()


def _first_random_plain(generator: random.Random, text: str) -> float:
    return random.Random(text).random()


if any(
    _first_random(random.Random(), text) != _first_random_plain(random.Random(), text)
    for text in ("", "neurorace-bot/0/1/2/delay/take", "é")
):
    _first_random = _first_random_plain  # another Python seeds texts otherwise: the plain way


#: A side shown as a dict -> (symbol, colour, number).
_side: Any = itemgetter("symbol", "colour", "number")


@lru_cache(maxsize=256)
def _task(text: str) -> Task:
    return parse_task(text)


@lru_cache(maxsize=256)
def _find_factors(text: str) -> tuple[float, ...]:
    """How much longer than an action finding a tile for each place takes: ``1 + bits / 2`` (see the module doc)."""
    return tuple(1.0 + math.log2(120 / max(1, count)) / 2 for count in choices(_task(text)))


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
        #: The last decision while playing: (step, task, centre as read, decision).
        self._decided: tuple[int, Any, list[Any], Decision | None] | None = None
        self._since = 0
        self._step = 0
        self._mistake: tuple[int, int, int] | None = None  # round, slot, spot of a tile laid on purpose wrong
        self._draws: tuple[int, dict[tuple[Any, ...], float]] = (-1, {})
        self._generator = random.Random()  # seeded again for each draw (see _first_random)
        #: Every reading of the centre since the last plan was the same or one tile fewer.
        self._centre_shrunk = False
        self._centre: tuple[list[dict[str, Any]], dict[int, tuple[Side, ...]]] | None = None
        # The last plan: (task, filled, previous, hand), the centre it was made with (spot -> sides), and the plan
        # as (spot, side) pairs (spot -1: the tile in hand), or None when there was none.
        self._plan: tuple[tuple[Any, ...], dict[int, tuple[Side, ...]], list[tuple[int, int]] | None] | None = None
        # The centre's candidates for every place of the card: (task, the centre, the candidates by place).
        self._cands: tuple[str, dict[int, tuple[Side, ...]], list[list[tuple[int, int, int]]]] | None = None

    # -- timing ----------------------------------------------------------------------------------------
    def _seed_text(self, *key: Any) -> str:
        return "/".join((f"neurorace-bot/{self.seed}/{self.seat}/{self._step}", *map(str, key)))

    def _random(self, *key: Any) -> random.Random:
        return random.Random(self._seed_text(*key))

    def _draw(self, *key: Any) -> float:
        """The first ``random()`` of ``_random(*key)``, kept for this step (asked again, the bot draws the same)."""
        memo = self._draws
        if memo[0] != self._step:
            memo = self._draws = (self._step, {})
        value = memo[1].get(key)
        if value is None:
            value = memo[1][key] = _first_random(self._generator, self._seed_text(*key))
        return value

    def _at(self, factor: float, *key: Any) -> int:
        low, high = 1 - self.jitter, 1 + self.jitter
        spread = low + (high - low) * self._draw("delay", *key)  # random.Random.uniform, from the same draw
        return self._since + max(1, round(self.action_ms * factor * spread))

    # -- deciding --------------------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision | None:
        view = observation.view
        me = view["players"][self.seat]
        # The view's own lists and dicts (built afresh each step, never changed after): compared, not printed.
        signature = (view["phase"], view["round"], me["slots"], me["hand"], me["level"], view.get("ready"))
        if signature != self._signature:
            self._signature = signature
            self._since = observation.now
            self._step += 1
        elif view["phase"] == "playing":
            # Asked again with nothing it reads changed (another seat turned or laid a tile): the same decision.
            # Deciding is a function of the step, the task and the centre (every draw is kept per step), so this
            # only skips the work (speed).
            last = self._decided
            if last is not None and last[0] == self._step and last[1] == me["task"] and last[2] == view["centre"]:
                return last[3]
        decision = self._decide(view, me, observation)
        if view["phase"] == "playing":
            self._decided = (self._step, me["task"], list(view["centre"]), decision)
        return decision

    def _decide(self, view: dict[str, Any], me: dict[str, Any], observation: Observation) -> Decision | None:
        if view["phase"] == "ready":
            # A bot only ever marks itself ready; the round starts for everyone after the countdown.
            legal = {action["type"] for action in observation.legal_actions}
            if "ready" in legal:
                return Decision({"type": "ready"}, self._since + self.start_delay_ms)
            if "start" in legal:  # a match set up under rules revision 2 or older (any seat says START)
                return Decision({"type": "start"}, self._since + self.start_delay_ms)
            return None
        if view["phase"] != "playing" or me["task"] is None:
            return None
        task = _task(me["task"])
        slots = me["slots"]
        filled = slots.index(None) if None in slots else PLACES  # the first empty place
        hand = me["hand"]
        if self._mistake is not None and (self._mistake[0] != view["round"] or filled > self._mistake[1]):
            self._mistake = None
        if hand is None and filled == PLACES:
            return Decision({"type": "stop"}, self._at(1.0, "stop"))
        if hand is not None and self._mistake == (view["round"], filled, hand["from_spot"]):
            return Decision({"type": "place", "slot": filled}, self._at(1.0, "place"))
        centre = self._read_centre(view["centre"])
        previous = slots[filled - 1]["number"] if filled else None
        held = (hand["from_spot"], (_side(hand["up"]), _side(hand["down"]))) if hand is not None else None
        plan = self._plan_steps(task, me["task"], centre, filled, previous, held) if filled < PLACES else None
        if hand is not None:
            if plan and plan[0][0] == -1:
                if plan[0][1] == 0:
                    return Decision({"type": "place", "slot": filled}, self._at(1.0, "place"))
                return Decision({"type": "turn"}, self._at(1.0, "turn"))
            return Decision({"type": "return"}, self._at(1.0, "return"))
        if plan is None:
            if filled:
                return Decision({"type": "take_back"}, self._at(1.0, "take_back"))
            return None  # wait for tiles held by others to come back
        factor = _find_factors(me["task"])[filled]
        if self.mistake_chance and self._draw("mistake", view["round"], filled) < self.mistake_chance:
            rnd = self._random("mistake", view["round"], filled)
            rnd.random()
            place = task.places[filled]
            spots, items = _items(centre, held)
            wrong = [spots[i] for i, options in enumerate(items) if not place.matches(options[0])]
            if wrong:
                spot = rnd.choice(wrong)
                self._mistake = (view["round"], filled, spot)
                return Decision({"type": "take", "spot": spot}, self._at(factor, "take"))
        return Decision({"type": "take", "spot": plan[0][0]}, self._at(factor, "take"))

    def _read_centre(self, raw: list[dict[str, Any]]) -> dict[int, tuple[Side, ...]]:
        """The centre by spot, each tile as the sides this bot can know; the last reading is reused when the centre
        is the same or lost one tile."""
        last = self._centre
        if last is not None:
            before, centre = last
            if raw == before:
                return centre
            if len(raw) == len(before) - 1:
                # The first entry that differs (compared as `a != b`, by C iterators: speed).
                gone = next(compress(count(), map(ne, raw, before)), len(raw))
                if raw[gone:] == before[gone + 1 :]:
                    centre = dict(centre)
                    del centre[before[gone]["spot"]]
                    self._centre = (list(raw), centre)
                    return centre
        centre = {}
        known = _KNOWN
        for entry in raw:
            side = _side(entry["up"])
            sides = known.get(side)
            if sides is None:
                down = BACKS.get(side)
                sides = (side,) if down is None else (side, down)
            centre[entry["spot"]] = sides
        self._centre = (list(raw), centre)
        self._centre_shrunk = False
        return centre

    def _plan_steps(
        self,
        task: Task,
        text: str,
        centre: dict[int, tuple[Side, ...]],
        filled: int,
        previous: int | None,
        held: tuple[int, tuple[Side, ...]] | None,
    ) -> list[tuple[int, int]] | None:
        """The plan for the rest of the card as (spot, side) pairs (spot -1: the tile in hand), or ``None``.

        The solver returns the first layout in a fixed order (the tile in hand, then the centre in spot order; for
        each tile its up side first). That first layout is known without solving again when, since the last plan,
        tiles have only left the centre (taken by others, none of the plan's) and this bot has at most made the
        plan's next step: taken its first tile, turned it, or placed it. Any other change plans afresh.
        """
        key = (text, filled, previous, held)
        last = self._plan
        if last is not None:
            steps = _follow(last, key, centre, self._centre_shrunk)
            if steps is not _UNKNOWN:
                self._plan = (key, last[1], steps)
                self._centre_shrunk = True
                return steps
        steps = solve_candidates(task, self._candidates(task, key, centre, held), start=filled, previous=previous)
        self._plan = (key, centre, steps)
        self._centre_shrunk = True
        return steps

    def _candidates(
        self,
        task: Task,
        key: tuple[Any, ...],
        centre: dict[int, tuple[Side, ...]],
        held: tuple[int, tuple[Side, ...]] | None,
    ) -> list[list[tuple[int, int, int]]]:
        """The solver's candidates for the places left, naming each tile by its spot (-1: the tile in hand), in the
        solver's order (the tile in hand first, then the centre in spot order).

        Speed: the centre's candidates for every place of the card are listed once; while tiles have
        only left the centre since, the candidates without the tiles that left are exactly those listed afresh.
        """
        text, filled, _, _ = key
        memo = self._cands
        if memo is None or memo[0] != text or not centre.items() <= memo[1].items():
            memo = self._cands = (text, centre, candidates_by_place(task, list(centre.values()), 0, list(centre)))
        if len(centre) == len(memo[1]):
            places = memo[2][filled:]
        else:
            places = [[found for found in place if found[0] in centre] for place in memo[2][filled:]]
        if held is None:
            return places
        mine = candidates_by_place(task, [held[1]], filled, [-1])
        return [first + rest for first, rest in zip(mine, places, strict=True)]


_UNKNOWN: Any = object()
_HAND = frozenset((-1,))  # the spot of the tile in hand, in a plan
#: Up side -> the sides the bot knows of a centre tile showing it (the up side, and the back when it is unique).
_KNOWN: dict[Side, tuple[Side, ...]] = {up: (up,) if down is None else (up, down) for up, down in BACKS.items()}


def _items(centre: dict[int, tuple[Side, ...]], held: tuple[int, tuple[Side, ...]] | None) -> tuple[list[int], Any]:
    """The solver's items and their spots: the tile in hand first (spot -1), so that the plan keeps it when it
    fits as well as any other, then the centre in spot order."""
    spots = [-1] if held is not None else []
    items: list[list[Side]] = [list(held[1])] if held is not None else []
    for spot, sides in centre.items():
        spots.append(spot)
        items.append(list(sides))
    return spots, items


def _follow(
    last: tuple[Any, dict[int, tuple[Side, ...]], list[tuple[int, int]] | None],
    key: tuple[Any, ...],
    centre: dict[int, tuple[Side, ...]],
    shrunk: bool = False,
) -> list[tuple[int, int]] | None:
    """The plan for ``key`` derived from the last one, or ``_UNKNOWN`` when it must be solved again.

    ``shrunk``: the centre is known to hold only tiles of the centre the last plan was made with.
    """
    (text, filled, previous, held), before, steps = last
    if key[0] != text or not (shrunk or centre.items() <= before.items()):
        return _UNKNOWN
    if steps is None:
        # No layout with these tiles: none with fewer either (the same card, nothing new in hand).
        return None if key[1:] == (filled, previous, held) else _UNKNOWN
    if not {spot for spot, _ in steps[1:]} - _HAND <= centre.keys():  # a later tile of the plan left the centre
        return _UNKNOWN
    first_spot, first_side = steps[0]
    if key[1:] == (filled, previous, held):
        return steps if first_spot == -1 or first_spot in centre else _UNKNOWN
    now_held = key[3]
    if held is None and now_held is not None and key[1:3] == (filled, previous):
        # Took the plan's first tile, as it lay (its up side up): it leads the same layout from the hand.
        spot, sides = now_held
        if spot == first_spot and spot not in centre and sides[0] == before[spot][0]:
            return [(-1, first_side), *steps[1:]]
        return _UNKNOWN
    if held is not None and now_held is not None and key[1:3] == (filled, previous):
        # Turned the tile in hand to show the side the plan lays.
        spot, sides = held
        if (first_spot, first_side) == (-1, 1) and now_held == (spot, (sides[1], sides[0])):
            return [(-1, 0), *steps[1:]]
        return _UNKNOWN
    if held is not None and now_held is None and key[1] == filled + 1:
        # Placed the tile in hand, up side as planned: the rest of the layout is the first for the rest.
        if (first_spot, first_side) == (-1, 0) and key[2] == held[1][0][2] and steps[1:]:
            return steps[1:]
        return _UNKNOWN
    return _UNKNOWN
