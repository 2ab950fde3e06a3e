"""The bot interface: a bot sees only what its seat may see.

A bot is asked for a :class:`Decision` with an :class:`Observation` built from ``match.view(seat)`` and
``match.legal_actions(seat)``; it never gets the match itself. Turn-based bots return a decision without a
time. Real-time bots also say *when* they want to act (``Decision.at``, ms since the match began); the driver
asks again after anything happens, so a bot may change its mind.

>>> import mindtable
>>> match = mindtable.new_match("the-mind", players=2, seed=1)
>>> bot = RandomBot(seat=0, seed=3)
>>> decision = bot.decide(observe(match, 0, now=0))
>>> decision.action["type"] in {a["type"] for a in match.legal_actions(0)}
True
"""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mindtable.core.game import Game
    from mindtable.core.match import Match


class Observation:
    """What a bot knows when asked: its seat's view, its legal actions, and the time now.

    Read-only, like a frozen dataclass (and as cheap to make as a plain object: the driver makes one per bot per
    step). Views handed to several bots in one step may share their public parts: a bot never changes its view.
    """

    __match_args__ = ("seat", "view", "legal_actions", "now")

    seat: int
    view: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    now: int

    def __init__(self, seat: int, view: dict[str, Any], legal_actions: list[dict[str, Any]], now: int) -> None:
        fields = self.__dict__
        fields["seat"] = seat
        fields["view"] = view
        fields["legal_actions"] = legal_actions
        fields["now"] = now

    @property
    def legal_types(self) -> tuple[str, ...]:
        """The types of :attr:`legal_actions`, each once and in their order. A bot whose choice depends only on
        what kind of move it is asked for reads this instead: the driver's observation gives it without listing
        the actions (:meth:`~mindtable.core.match.Match.bot_legal_types`)."""
        return tuple(dict.fromkeys(a["type"] for a in self.legal_actions))

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # like the dataclass: a view is a dict

    def __repr__(self) -> str:
        return (
            f"Observation(seat={self.seat!r}, view={self.view!r}, legal_actions={self.legal_actions!r}, "
            f"now={self.now!r})"
        )


class Decision:
    """The action a bot wants, and for real-time games the time it wants it (``None``: now). Read-only."""

    # Private slots behind read-only properties: assigning raises FrozenInstanceError; making one is cheap.
    __slots__ = ("_action", "_at")
    __match_args__ = ("action", "at")

    def __init__(self, action: dict[str, Any], at: int | None = None) -> None:
        self._action = action
        self._at = at

    @property
    def action(self) -> dict[str, Any]:
        return self._action

    @action.setter
    def action(self, value: Any) -> None:
        raise FrozenInstanceError("cannot assign to field 'action'")

    @action.deleter
    def action(self) -> None:
        raise FrozenInstanceError("cannot delete field 'action'")

    @property
    def at(self) -> int | None:
        return self._at

    @at.setter
    def at(self, value: Any) -> None:
        raise FrozenInstanceError("cannot assign to field 'at'")

    @at.deleter
    def at(self) -> None:
        raise FrozenInstanceError("cannot delete field 'at'")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Decision)
        return self._action == other._action and self._at == other._at

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Decision(action={self._action!r}, at={self._at!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Decision, (self._action, self._at))


class Bot(Protocol):
    seat: int

    def decide(self, observation: Observation) -> Decision | None:
        """The next action this bot wants, or ``None`` to wait for something to happen."""
        ...


def observe(match: Match, seat: int, now: int) -> Observation:
    """What a bot at ``seat`` is asked with: its view and the legal actions a bot is offered
    (:meth:`Match.bot_legal_actions`)."""
    return Observation(seat=seat, view=match.view(seat), legal_actions=match.bot_legal_actions(seat), now=now)


#: Words a random player types into a free-text input.
RANDOM_WORDS = ("yes", "no", "Paris", "42", "I don't know", "a", "mars", "zebra", "1969", "b")


def fill_inputs(entry: dict[str, Any], chooser: random.Random) -> dict[str, Any]:
    """A listed action with its typed ``inputs`` filled in at random from their schemas (texts, numbers).

    >>> entry = {"type": "answer", "seat": 1, "inputs": [{"name": "wager", "kind": "int", "minimum": 1,
    ...          "maximum": 3, "optional": False}]}
    >>> fill_inputs(entry, random.Random(1))["wager"] in (1, 2, 3)
    True
    """
    action = {k: v for k, v in entry.items() if k != "inputs"}
    for spec in entry.get("inputs", ()):
        kind = spec["kind"]
        if spec.get("optional") and chooser.random() < 0.2:
            continue
        if kind == "int":
            action[spec["name"]] = chooser.randint(spec["minimum"], spec["maximum"])
        elif kind == "text":
            action[spec["name"]] = chooser.choice(RANDOM_WORDS)[: spec.get("max_length", 40)]
        elif kind == "bool":
            action[spec["name"]] = chooser.random() < 0.5
    return action


class RandomBot:
    """Picks uniformly among its legal actions, typing random inputs where an action asks for them; in
    real-time games it waits a random 0.2-2 s first. Works for every game.
    """

    def __init__(self, seat: int, seed: int = 0, min_delay_ms: int = 200, max_delay_ms: int = 2000) -> None:
        self.seat = seat
        self._random = random.Random(f"random-bot/{seed}/{seat}")
        self.min_delay_ms = min_delay_ms
        self.max_delay_ms = max_delay_ms
        self._plan: tuple[tuple[Any, ...], Decision] | None = None

    def decide(self, observation: Observation) -> Decision | None:
        if not observation.legal_actions:
            return None
        # Keep one plan while the situation is unchanged, so re-asking does not re-roll the dice.
        key = (_freeze(observation.legal_actions), repr(observation.view))
        if self._plan is not None and self._plan[0] == key:
            return self._plan[1]
        action = fill_inputs(self._random.choice(observation.legal_actions), self._random)
        at = observation.now + self._random.randint(self.min_delay_ms, self.max_delay_ms)
        decision = Decision(action, at)
        self._plan = (key, decision)
        return decision


def _freeze(actions: list[dict[str, Any]]) -> tuple[Any, ...]:
    return tuple(tuple(sorted((k, repr(v)) for k, v in action.items())) for action in actions)


def load_bot(game: Game[Any, Any], name: str, seat: int, seed: int = 0, **params: Any) -> Bot:
    """Build the bot called ``name`` for ``game``; unknown names get an error listing the known ones."""
    from mindtable.core.errors import InvalidOptions
    from mindtable.core.hooks import resolve

    target = game.bots.get(name)
    if target is None:
        raise InvalidOptions(f"unknown bot {name!r} for {game.id}; available bots: {', '.join(sorted(game.bots))}")
    factory = resolve(target, f"bot {name!r} of {game.id}")
    try:
        bot: Bot = factory(seat=seat, seed=seed, **params)
    except TypeError as exc:
        raise InvalidOptions(f"bad parameters for bot {name!r}: {exc}") from exc
    return bot
