"""The question model shared by the quiz games.

A :class:`Question` covers what the three quiz rulebooks print:

* ``text`` — a free-text question. ``answer`` is the answer *as printed*: the part in capitals is what is
  required, a bracketed explanation is never required, and ``accepted`` lists further alternatives. It may
  carry ``options`` (a, b, c …) that the player may ask for; ``correct`` is then the index of the right one.
* ``choice`` — pick one of ``options`` (Caída Libre's Russian roulette, imported multiple choice).
* ``truefalse`` — a statement that is true or false (``answer`` is ``"true"`` or ``"false"``).
* ``list`` — "name ``count`` items": ``items`` are the accepted items, each an answer as printed.
* ``higher`` — which of two ``options`` is higher (Caída Libre's "More or Less").
* ``number`` — a numeric answer ``value`` with an optional ``tolerance`` and ``unit``.

>>> q = Question(id="q1", kind="text", prompt="Capital of Australia?", answer="CANBERRA (not Sydney)")
>>> q.required_answer
'CANBERRA'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

Kind = Literal["text", "choice", "truefalse", "list", "higher", "number"]
KINDS: tuple[str, ...] = ("text", "choice", "truefalse", "list", "higher", "number")
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")
OPTION_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a question was read from (file and line), for messages. Never part of equality."""

    file: str = ""
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True, slots=True)
class Question:
    """One question. Equality ignores :attr:`origin`, so imported and re-imported questions compare equal."""

    id: str
    kind: Kind
    prompt: str
    answer: str = ""
    accepted: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    correct: int | None = None
    items: tuple[str, ...] = ()
    count: int | None = None
    value: float | None = None
    tolerance: float | None = None
    tolerance_pct: float | None = None
    unit: str = ""
    person: bool = False
    category: str = ""
    language: str = "en"
    difficulty: str | None = None
    tags: tuple[str, ...] = ()
    check: str = ""
    note: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)
    origin: Origin = field(default_factory=Origin, compare=False, hash=False, repr=False)

    @property
    def required_answer(self) -> str:
        """The printed answer without its bracketed explanation (``''`` for kinds without a text answer)."""
        from mindtable.trivia.text import strip_brackets

        if self.kind in ("choice", "higher") and self.correct is not None:
            return self.options[self.correct]
        return strip_brackets(self.answer)

    @property
    def truth(self) -> bool | None:
        """For ``truefalse`` questions, whether the statement is true."""
        if self.kind != "truefalse":
            return None
        return self.answer.strip().lower() == "true"

    @property
    def display_answer(self) -> str:
        """The answer as an asker would read it out."""
        if self.kind in ("choice", "higher") or (self.options and self.correct is not None and not self.answer):
            if self.correct is None:
                return ""
            return f"{OPTION_LETTERS[self.correct]}) {self.options[self.correct]}"
        if self.kind == "list":
            return "; ".join(self.items)
        if self.kind == "number":
            value = format_number(self.value)
            tol = f" ± {format_number(self.tolerance)}" if self.tolerance else ""
            return f"{value}{tol} {self.unit}".strip()
        return self.answer

    def with_origin(self, file: str, line: int) -> Question:
        return replace(self, origin=Origin(file, line))


def format_number(value: float | None) -> str:
    """``1822.0`` → ``'1822'``, ``3.5`` → ``'3.5'``."""
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))
