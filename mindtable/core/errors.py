"""Exceptions raised by mindtable.

Every error says what was wrong, where, and what is allowed, so that a caller (a person at a terminal, a
web client, a bot) can act on it without reading the source.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class MindtableError(Exception):
    """Base class of every error mindtable raises on purpose."""


class IllegalAction(MindtableError):
    """An action the rules do not allow now.

    ``code`` is stable and machine-readable (``"not_your_turn"``, ``"no_cards"``...) and ``params`` hold what a
    page needs to say it in any language (``{"lowest": 12}``); ``message`` explains it to a person in English.
    Codes are declared with their English template by the core (:data:`mindtable.core.codes.CORE_CODES`) and by
    each game (``Game.codes``); a game raises with :func:`~mindtable.core.codes.refuse` and the match fills in
    the message from the template. The match is left exactly as it was.

    >>> err = IllegalAction("no_cards", "seat 1 has no card left to play", params={"seat": 1})
    >>> err.code, str(err), err.to_dict()["params"]
    ('no_cards', 'seat 1 has no card left to play', {'seat': 1})
    """

    def __init__(
        self,
        code: str,
        message: str | None = None,
        action: Mapping[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        # Kept cheap: gates build refusals while listing legal actions, thousands of times a second.
        self.code = code
        self.params: dict[str, Any] = params if params is not None else {}
        self._message = message
        self.action = dict(action) if action is not None else None

    @property
    def message(self) -> str:
        return self._message if self._message is not None else self.code.replace("_", " ")

    @property
    def filled(self) -> bool:
        """Whether the English message is known (given, or filled in from the code's template)."""
        return self._message is not None

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"IllegalAction({self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.code, self._message, self.action, self.params))

    def with_message(self, message: str) -> IllegalAction:
        """The same refusal with its English message filled in from a template."""
        self._message = message
        return self

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params), "message": self.message}


class UnknownGame(MindtableError, ValueError):
    """A game id that is not in the registry."""


class GameNotAvailable(MindtableError):
    """A registered game whose rules engine is not installed or not written yet."""


class InvalidOptions(MindtableError, ValueError):
    """Match options (or the number of players) that the game does not accept."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class InvalidSnapshot(MindtableError, ValueError):
    """A snapshot or record that cannot be loaded; the message names the field."""


class ReplayMismatch(MindtableError):
    """A record that does not replay to the state it claims."""
