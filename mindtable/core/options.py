"""Declared match options ("house rules") and their validation.

A game declares its options once; :func:`validate_options` fills in defaults and rejects anything else with
an error that names the option, what was given and what is allowed.

>>> schema = (Option("lives", int, default=None, minimum=1, maximum=5, help="starting lives"),
...           Option("detection", str, default="table", choices=("table", "players")))
>>> validate_options(schema, {"detection": "players"})
{'lives': None, 'detection': 'players'}
>>> validate_options(schema, {"lifes": 3})
Traceback (most recent call last):
...
mindtable.core.errors.InvalidOptions: unknown option 'lifes'; allowed options: lives, detection
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from mindtable.core.errors import InvalidOptions

#: ``Option.room_default`` when a room gives the option its ``default``.
NO_ROOM_DEFAULT: Any = object()

_TYPE_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


@dataclass(frozen=True)
class Option:
    """One option: its name, type, default and allowed values. ``default=None`` means "as the book says"."""

    name: str
    type: type
    default: Any = None
    choices: Sequence[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""
    #: What kind of file the value names (``"bank"``, ``"board"``), for options that name a file the game reads
    #: once, in ``initial_state`` (never while a match runs: a record replays without the file). The Python API
    #: and the terminal pass paths; a server never takes a path from a client — it offers the files its host
    #: named, or the group's own upload, by name (``new_match(files=...)`` says where each name is read from).
    file: str | None = None
    #: The value a room (the server's lobby) gives the option unless its creator says otherwise, where people at a
    #: table want something other than the engine's default (``NO_ROOM_DEFAULT``: the default). Simulations, the
    #: Python API and records keep ``default`` (see :func:`room_options`).
    room_default: Any = NO_ROOM_DEFAULT
    #: Left out of the resolved options when it is at its default: for an option added after matches were
    #: recorded, so that their starts (and every seeded game's) stay exactly as they were (see
    #: :func:`validate_options`; read it with ``options.get(name, default)``).
    omit_default: bool = False

    def describe_allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        text = _TYPE_NAMES.get(self.type, self.type.__name__)
        if self.minimum is not None and self.maximum is not None:
            return f"{text} from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"{text} of at least {self.minimum}"
        if self.maximum is not None:
            return f"{text} of at most {self.maximum}"
        return text

    def validate(self, value: Any) -> Any:
        if value is None and self.default is None:
            return None
        value = self._coerce(value)
        if self.choices is not None and value not in self.choices:
            raise self._error(value)
        if self.minimum is not None and value < self.minimum:
            raise self._error(value)
        if self.maximum is not None and value > self.maximum:
            raise self._error(value)
        return value

    def _coerce(self, value: Any) -> Any:
        if self.type is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "on", "false", "no", "0", "off"):
                return value.lower() in ("true", "yes", "1", "on")
            raise self._error(value)
        if self.type is int:
            if isinstance(value, bool):
                raise self._error(value)
            if isinstance(value, int):
                return value
            if isinstance(value, str):
                try:
                    return int(value.strip())
                except ValueError:
                    raise self._error(value) from None
            raise self._error(value)
        if self.type is float:
            if isinstance(value, bool):
                raise self._error(value)
            if isinstance(value, (int, float)):
                return float(value)
            if isinstance(value, str):
                try:
                    return float(value.strip())
                except ValueError:
                    raise self._error(value) from None
            raise self._error(value)
        if self.type is str:
            if isinstance(value, str):
                return value
            raise self._error(value)
        if not isinstance(value, self.type):
            raise self._error(value)
        return value

    def _error(self, value: Any) -> InvalidOptions:
        return InvalidOptions(
            f"option {self.name!r} must be {self.describe_allowed()}, got {value!r}", option=self.name
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": _TYPE_NAMES.get(self.type, self.type.__name__),
            "json_type": {bool: "boolean", int: "integer", float: "number", str: "string"}.get(self.type, "object"),
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "help": self.help,
            "file": self.file,
            **({"room_default": self.room_default} if self.room_default is not NO_ROOM_DEFAULT else {}),
        }


def validate_options(schema: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Options with defaults filled in; raises :class:`InvalidOptions` naming the first bad one."""
    given = dict(given or {})
    by_name = {option.name: option for option in schema}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        allowed = ", ".join(by_name) if by_name else "none"
        raise InvalidOptions(f"unknown option {unknown[0]!r}; allowed options: {allowed}", option=unknown[0])
    out = {}
    for option in schema:
        value = option.validate(given[option.name]) if option.name in given else option.default
        if option.omit_default and value == option.default:
            continue
        out[option.name] = value
    return out


def room_options(schema: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options a room starts a match with: each option's ``room_default`` unless ``given`` names it.

    >>> schema = (Option("undo_seconds", int, default=0, room_default=4, omit_default=True),
    ...           Option("lives", int, default=3))
    >>> room_options(schema, {}), room_options(schema, {"undo_seconds": 0})
    ({'undo_seconds': 4}, {'undo_seconds': 0})
    >>> validate_options(schema, {"undo_seconds": 0}), validate_options(schema, {"undo_seconds": 4})
    ({'lives': 3}, {'undo_seconds': 4, 'lives': 3})
    """
    out = {o.name: o.room_default for o in schema if o.room_default is not NO_ROOM_DEFAULT}
    out.update(given or {})
    return out


def stated_options(schema: Sequence[Option], resolved: Mapping[str, Any]) -> dict[str, Any]:
    """Resolved options with the ones left out at their default (``omit_default``) stated again: what a new room
    with the same settings (a rematch) is given, so that a room default does not replace a value chosen.

    >>> stated_options((Option("undo_seconds", int, default=0, room_default=4, omit_default=True),), {})
    {'undo_seconds': 0}
    """
    return {**{o.name: o.default for o in schema if o.omit_default}, **resolved}


#: Inside ``new_match(files=...)``: where each file option's value is read from.
_FILES: ContextVar[Mapping[str, str | os.PathLike[str]] | None] = ContextVar("mindtable_option_files", default=None)


@contextlib.contextmanager
def option_files(files: Mapping[str, str | os.PathLike[str]] | None) -> Iterator[None]:
    """While it lasts, :func:`option_path` reads file options' values through ``files`` (``None``: as paths)."""
    token = _FILES.set(files)
    try:
        yield
    finally:
        _FILES.reset(token)


def option_files_given() -> bool:
    """Whether an :func:`option_files` with files (not ``None``) is in force here."""
    return _FILES.get() is not None


def option_path(option: str, value: str) -> str:
    """The path a file option's ``value`` names, for a game's ``initial_state`` to read: the value itself (the
    Python API, the terminal), or, inside ``new_match(files=...)``, the path given for that name — a value not
    given there is refused, so a server never opens a path a client named.

    >>> option_path("board_file", "boards/mine.yaml")
    'boards/mine.yaml'
    >>> with option_files({"host:big": "/srv/boards/big.yaml"}):
    ...     option_path("board_file", "host:big")
    '/srv/boards/big.yaml'
    >>> with option_files({}):
    ...     option_path("board_file", "/etc/passwd")
    Traceback (most recent call last):
    ...
    mindtable.core.errors.InvalidOptions: option 'board_file' names no file offered here, got '/etc/passwd'
    """
    files = _FILES.get()
    if files is None:
        return value
    if value in files:
        return os.fspath(files[value])
    raise InvalidOptions(f"option {option!r} names no file offered here, got {value!r}", option=option)
