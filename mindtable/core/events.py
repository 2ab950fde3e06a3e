"""Small value objects that cross the game boundary: events, results, deadlines and typed actions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any


class Event:
    """Something that happened, and who may see it.

    ``to`` is ``None`` for a public event, otherwise the seats that may see it (spectators see only public
    events). Events are immutable (like a frozen dataclass) and cheap to make: rules create one or more per
    action.

    >>> Event("card_played", {"seat": 0, "card": 12}).to_dict()
    {'type': 'card_played', 'seat': 0, 'card': 12}
    >>> Event("dealt", {"hand": [3, 40]}, to=(1,)).visible_to(0)
    False
    """

    # The fields live in private slots behind read-only properties: assigning a field raises
    # FrozenInstanceError, and making an event costs three plain slot writes.
    __slots__ = ("_data", "_to", "_type")
    __match_args__ = ("type", "data", "to")

    def __init__(self, type: str, data: Mapping[str, Any] | None = None, to: tuple[int, ...] | None = None) -> None:
        self._type = type
        self._data = {} if data is None else data
        self._to = to

    @property
    def type(self) -> str:
        return self._type

    @type.setter
    def type(self, value: Any) -> None:
        raise FrozenInstanceError("cannot assign to field 'type'")

    @type.deleter
    def type(self) -> None:
        raise FrozenInstanceError("cannot delete field 'type'")

    @property
    def data(self) -> Mapping[str, Any]:
        return self._data

    @data.setter
    def data(self, value: Any) -> None:
        raise FrozenInstanceError("cannot assign to field 'data'")

    @data.deleter
    def data(self) -> None:
        raise FrozenInstanceError("cannot delete field 'data'")

    @property
    def to(self) -> tuple[int, ...] | None:
        return self._to

    @to.setter
    def to(self, value: Any) -> None:
        raise FrozenInstanceError("cannot assign to field 'to'")

    @to.deleter
    def to(self) -> None:
        raise FrozenInstanceError("cannot delete field 'to'")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Event)
        return (self._type, self._data, self._to) == (other._type, other._data, other._to)

    def __hash__(self) -> int:
        return hash((self._type, self._data, self._to))

    def __repr__(self) -> str:
        return f"Event(type={self._type!r}, data={self._data!r}, to={self._to!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self._type, self._data, self._to))

    def visible_to(self, seat: int | None) -> bool:
        to = self._to
        return to is None or (seat is not None and seat in to)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self._type, **self._data}


def events_for(events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    """The events of ``events`` that ``seat`` may see, as JSON-ready dicts (``None`` is a spectator)."""
    return [event.to_dict() for event in events if event.visible_to(seat)]


@dataclass(frozen=True)
class Result:
    """How a match ended.

    ``winners`` lists the winning seats (every seat for a cooperative win, none for a loss); ``scores`` has
    one number per seat; ``details`` holds game-specific facts, with ``details["progress"]`` the number a
    simulation summarises (for example the level reached).
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class Deadline:
    """A moment at which the game acts by itself, unless a player acts first.

    Whoever drives the match (server, simulator, terminal) applies ``action`` with ``"at": at`` once the
    clock reaches ``at``; the engine never reads a clock.
    """

    at: int
    action: Mapping[str, Any]

    def due_action(self) -> dict[str, Any]:
        return {**self.action, "at": self.at}


@dataclass(frozen=True)
class Action:
    """A typed action, for callers who prefer objects to dicts.

    >>> Action("play", seat=1, at=1500).to_dict()
    {'type': 'play', 'seat': 1, 'at': 1500}
    >>> Action.from_dict({"type": "take", "seat": 0, "tile": 4})
    Action(type='take', seat=0, at=None, params={'tile': 4})
    """

    type: str
    seat: int | None = None
    at: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "seat": self.seat}
        if self.at is not None:
            data["at"] = self.at
        data.update(self.params)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        params = {k: v for k, v in data.items() if k not in ("type", "seat", "at")}
        return cls(str(data["type"]), data.get("seat"), data.get("at"), params)
