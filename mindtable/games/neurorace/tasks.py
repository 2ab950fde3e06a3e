"""Task cards as one line of text: parse, format, and check a layout of tiles against a task.

A task is 7 places read left to right, separated by spaces. Between two neighbouring places there may be a
sign ``<`` or ``>`` comparing the numbers of the two tiles laid there. A place is one of:

==================  ========================================================================================
``sun``             a white symbol: that symbol in any colour (also ``moon``, ``lightning``)
``[red]``           a coloured square: any symbol of that colour (also yellow, green, blue, purple)
``red-sun``         a coloured symbol: exactly that symbol in that colour
``3_``              a number whose first digit is 3 (30-39); numbers are written with two digits, 00-99
``_7``              a number whose last digit is 7 (07, 17, ... 97)
==================  ========================================================================================

>>> task = parse_task("sun [red] blue-moon < 4_ _7 > lightning purple-sun")
>>> format_task(task)
'sun [red] blue-moon < 4_ _7 > lightning purple-sun'
>>> task.places[3].matches(("moon", "green", 42))
True
>>> parse_task("sun moon [pink] sun moon sun moon")
Traceback (most recent call last):
...
mindtable.games.neurorace.tasks.TaskSyntaxError: column 10: '[pink]' is not a colour square; colours: ...
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from mindtable.games.neurorace.components import ANY, COLOURS, SYMBOLS, Side

PLACES = 7
SIGNS = ("<", ">")
_TOKEN = re.compile(r"[<>]|[^\s<>]+")
ALLOWED_PLACES = (
    "a white symbol (sun, moon, lightning), a coloured square ([red]), a coloured symbol (red-sun), "
    "a first digit (3_) or a last digit (_7)"
)


class TaskSyntaxError(ValueError):
    """A malformed task line; ``column`` (1-based) is where the problem starts."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(f"column {column}: {message}" if column is not None else message)
        self.column = column
        self.reason = message


@dataclass(frozen=True, slots=True)
class Place:
    """One place's condition. ``kind`` is ``symbol``, ``colour``, ``both``, ``first`` or ``last``."""

    kind: str
    symbol: str | None = None
    colour: str | None = None
    digit: int | None = None

    def matches(self, side: Side) -> bool:
        symbol, colour, number = side
        if self.kind == "symbol":
            return symbol in (self.symbol, ANY)
        if self.kind == "colour":
            return colour in (self.colour, ANY)
        if self.kind == "both":
            return symbol in (self.symbol, ANY) and colour in (self.colour, ANY)
        if self.kind == "first":
            return number // 10 == self.digit
        return number % 10 == self.digit

    def text(self) -> str:
        if self.kind == "symbol":
            return str(self.symbol)
        if self.kind == "colour":
            return f"[{self.colour}]"
        if self.kind == "both":
            return f"{self.colour}-{self.symbol}"
        if self.kind == "first":
            return f"{self.digit}_"
        return f"_{self.digit}"

    def describe(self) -> str:
        """The condition in words, for people."""
        if self.kind == "symbol":
            return f"a {self.symbol} of any colour"
        if self.kind == "colour":
            return f"any symbol in {self.colour}"
        if self.kind == "both":
            return f"a {self.colour} {self.symbol}"
        if self.kind == "first":
            return f"a number {self.digit}0-{self.digit}9"
        return f"a number ending in {self.digit}"


@dataclass(frozen=True, slots=True)
class Task:
    """Seven places and the six gaps between them (``None``, ``"<"`` or ``">"``)."""

    places: tuple[Place, ...]
    signs: tuple[str | None, ...]

    def __str__(self) -> str:
        return format_task(self)


def sign_holds(sign: str | None, left: int, right: int) -> bool:
    """``<``: the left number is smaller; ``>``: the left number is greater; no sign: always."""
    if sign == "<":
        return left < right
    if sign == ">":
        return left > right
    return True


#: token -> its place, for the tokens read so far (a deck repeats a few dozen tokens; places are immutable).
_PLACES: dict[str, Place] = {}


def parse_place(token: str, column: int | None = None) -> Place:
    if type(token) is not str:
        return _parse_place(token, column)
    place = _PLACES.get(token)
    if place is None:
        place = _parse_place(token, column)
        if len(_PLACES) < 4096:
            _PLACES[token] = place
    return place


def _parse_place(token: str, column: int | None) -> Place:
    if token in SYMBOLS:
        return Place("symbol", symbol=token)
    if token.startswith("["):
        name = token[1:-1] if token.endswith("]") else None
        if name not in COLOURS:
            raise TaskSyntaxError(
                f"{token!r} is not a colour square; colours: {', '.join(COLOURS)}",
                column,
            )
        return Place("colour", colour=name)
    if "-" in token:
        colour, _, symbol = token.partition("-")
        if colour not in COLOURS:
            raise TaskSyntaxError(f"{token!r}: colour {colour!r} is not one of {', '.join(COLOURS)}", column)
        if symbol not in SYMBOLS:
            raise TaskSyntaxError(f"{token!r}: symbol {symbol!r} is not one of {', '.join(SYMBOLS)}", column)
        return Place("both", symbol=symbol, colour=colour)
    if len(token) == 2 and token[1] == "_" and token[0].isdigit():
        return Place("first", digit=int(token[0]))
    if len(token) == 2 and token[0] == "_" and token[1].isdigit():
        return Place("last", digit=int(token[1]))
    raise TaskSyntaxError(f"{token!r} is not a place; allowed: {ALLOWED_PLACES}", column)


def parse_task(text: str) -> Task:
    """Read one task line; errors give the column and what is allowed there."""
    if not isinstance(text, str):
        raise TaskSyntaxError(f"a task is a line of text, got {type(text).__name__}")
    places: list[Place] = []
    signs: list[str | None] = []
    pending: str | None = None
    pending_column = 0
    for match in _TOKEN.finditer(text):
        token, column = match.group(), match.start() + 1
        if token in SIGNS:
            if not places:
                raise TaskSyntaxError(f"a task cannot start with {token!r}: a sign goes between two places", column)
            if pending is not None:
                raise TaskSyntaxError(f"two signs in a row ({pending!r} at column {pending_column}, {token!r})", column)
            pending, pending_column = token, column
            continue
        if len(places) == PLACES:
            raise TaskSyntaxError(f"{token!r} is an 8th place; a task has exactly {PLACES} places", column)
        place = parse_place(token, column)
        if places:
            signs.append(pending)
        pending = None
        places.append(place)
    if pending is not None:
        raise TaskSyntaxError(f"a task cannot end with {pending!r}: a sign goes between two places", pending_column)
    if len(places) != PLACES:
        raise TaskSyntaxError(f"a task has exactly {PLACES} places, this one has {len(places)}: {text.strip()!r}")
    return Task(tuple(places), tuple(signs))


def format_task(task: Task) -> str:
    parts = [task.places[0].text()]
    for sign, place in zip(task.signs, task.places[1:], strict=True):
        if sign is not None:
            parts.append(sign)
        parts.append(place.text())
    return " ".join(parts)


def layout_problems(task: Task, sides: Sequence[Side | None]) -> list[dict[str, object]]:
    """Why a layout (one up side or ``None`` per place) does not complete ``task``; empty when it does.

    Each problem is ``{"place": i, "code": ..., ...parameters, "reason": English}``: ``empty``; ``needs`` (the
    place's condition is not met; pages describe it from the task); ``sign`` with ``left``, ``sign``, ``right``
    (the numbers around a ``<`` or ``>`` that does not hold; it names the place to its right).
    """
    problems: list[dict[str, object]] = []
    for index, (place, side) in enumerate(zip(task.places, sides, strict=True)):
        if side is None:
            problems.append({"place": index, "code": "empty", "reason": "empty"})
        elif not place.matches(side):
            problems.append({"place": index, "code": "needs", "reason": f"needs {place.describe()}"})
    for index, sign in enumerate(task.signs):
        left, right = sides[index], sides[index + 1]
        if sign is not None and left is not None and right is not None and not sign_holds(sign, left[2], right[2]):
            problems.append(
                {
                    "place": index + 1,
                    "code": "sign",
                    "left": left[2],
                    "sign": sign,
                    "right": right[2],
                    "reason": f"{left[2]:02d} {sign} {right[2]:02d} does not hold",
                }
            )
    return problems
