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

import marshal
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

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON for states, records and the wire (see :func:`question_to_dict`)."""
        return question_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Question:
        """The question of :meth:`to_dict`'s JSON (see :func:`question_from_dict`)."""
        return question_from_dict(data)


def format_number(value: float | None) -> str:
    """``1822.0`` → ``'1822'``, ``3.5`` → ``'3.5'``."""
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


# --- building many questions fast (bank loading) ------------------------------------------------------------

QUESTION_ATTRIBUTES: tuple[str, ...] = tuple(Question.__dataclass_fields__)
"""Every field of :class:`Question` in order, ``origin`` last: the order of :func:`build_question`'s arguments."""
_TUPLE_SLOTS = frozenset(("accepted", "rejected", "options", "items", "tags"))


def _question_builder() -> Any:
    # A frozen dataclass sets each of its 23 fields through object.__setattr__ (about 6 µs a question); setting
    # the slots through their descriptors costs a third of that. Generated once, from the dataclass's fields.
    names = [name for name in QUESTION_ATTRIBUTES if name not in ("extra", "origin")]
    lines = [f"def build_question({', '.join(QUESTION_ATTRIBUTES)}):", "    q = _new(_Question)"]
    for name in names:
        lines.append(
            f"    _set_{name}(q, tuple({name}) if type({name}) is list else {name})"
            if name in _TUPLE_SLOTS
            else f"    _set_{name}(q, {name})"
        )
    lines += ["    _set_extra(q, extra)", "    _set_origin(q, origin)", "    return q"]
    namespace: dict[str, Any] = {"__name__": __name__, "_new": object.__new__, "_Question": Question}
    namespace.update({f"_set_{name}": getattr(Question, name).__set__ for name in QUESTION_ATTRIBUTES})
    exec("\n".join(lines), namespace)  # code made here from the field names only
    return namespace["build_question"]


build_question: Any = _question_builder()
build_question.__doc__ = """A :class:`Question` from every field's value in :data:`QUESTION_ATTRIBUTES` order (lists
become tuples), without the dataclass's ``__init__``: for values that were already validated (a bank being loaded or
read back from the bank cache). Gives exactly what ``Question(*values)`` gives.

>>> q = build_question("q1", "text", "Capital?", "CANBERRA", ["Canbera"], (), (), None, (), None, None, None, None,
...                    "", False, "", "en", None, (), "", "", {}, Origin("f.yaml", 3))
>>> q == Question("q1", "text", "Capital?", "CANBERRA", accepted=("Canbera",)) and q.origin.line
3
"""


# --- JSON (for states, records and the wire) ----------------------------------------------------------------

_TUPLE_FIELDS = ("accepted", "rejected", "options", "items", "tags")
_OPTIONAL_FIELDS = ("correct", "count", "value", "tolerance", "tolerance_pct", "difficulty")


def question_to_dict(q: Question) -> dict[str, Any]:
    """``q`` as plain JSON (fields at their defaults left out; the origin is not kept).

    >>> q = Question(id="q1", kind="text", prompt="Capital of Australia?", answer="CANBERRA", accepted=("Canbera",))
    >>> question_to_dict(q)
    {'id': 'q1', 'kind': 'text', 'prompt': 'Capital of Australia?', 'answer': 'CANBERRA', 'accepted': ['Canbera']}
    >>> question_from_dict(question_to_dict(q)) == q
    True
    """
    out: dict[str, Any] = {"id": q.id, "kind": q.kind, "prompt": q.prompt}
    if q.answer:
        out["answer"] = q.answer
    for name in _TUPLE_FIELDS:
        value = getattr(q, name)
        if value:
            out[name] = list(value)
    for name in _OPTIONAL_FIELDS:
        value = getattr(q, name)
        if value is not None:
            out[name] = value
    for name in ("unit", "category", "check", "note"):
        value = getattr(q, name)
        if value:
            out[name] = value
    if q.person:
        out["person"] = True
    if q.language != "en":
        out["language"] = q.language
    if q.extra:
        out["extra"] = dict(q.extra)
    return out


def question_from_dict(data: Mapping[str, Any]) -> Question:
    """The :class:`Question` of :func:`question_to_dict`'s JSON; a missing ``id``, ``kind`` or ``prompt`` or an
    unknown kind raises ``ValueError`` naming the field.

    A game reads the question being asked from its state's JSON several times a step: the same JSON (the same
    marshal bytes: the same values of the same types) gives the question already built, which is immutable."""
    try:
        # version 2: no references between objects, so the bytes do not depend on who else holds a value
        key = marshal.dumps(data, 2)  # type: ignore[arg-type]  # a dict of plain data, or ValueError
    except ValueError:  # not plain data (a Mapping of another type): built every time
        return _question_from_dict(data)
    known = _PARSED.get(key)
    if known is None:
        known = _question_from_dict(data)
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        _PARSED[key] = known
    return known


#: marshal bytes of a question's JSON -> the question (see :func:`question_from_dict`).
_PARSED: dict[bytes, Question] = {}
#: How many cards :meth:`Card.from_dict` keeps built (then it starts again).
CARD_CACHE_SIZE = 4096
#: marshal bytes of a card's JSON -> the card (see :meth:`Card.from_dict`).
_CARDS: dict[bytes, Card] = {}


def _question_from_dict(data: Mapping[str, Any]) -> Question:
    for name in ("id", "kind", "prompt"):
        if not isinstance(data.get(name), str):
            raise ValueError(f"question.{name}: missing or not a text")
    if data["kind"] not in KINDS:
        raise ValueError(f"question.kind: must be one of {', '.join(KINDS)}, got {data['kind']!r}")
    if not _DICT_FIELDS.issuperset(data):
        unknown = sorted(set(data) - _DICT_FIELDS)
        raise ValueError(f"question.{unknown[0]}: unknown field")
    # The fields in order, through build_question: what Question(**data) gives, without the dataclass's __init__.
    get = data.get
    values = [
        (tuple(data[name]) if name in data else default) if name in _TUPLE_SLOTS else get(name, default)
        for name, default in _FROM_DICT_DEFAULTS
    ]
    extra = get("extra")
    question: Question = build_question(*values, {} if extra is None else dict(extra), Origin())
    return question


#: The fields :func:`question_from_dict` reads, and every field but ``extra`` and ``origin`` with its default.
_DICT_FIELDS = frozenset(name for name in QUESTION_ATTRIBUTES if name != "origin")
_FROM_DICT_DEFAULTS: tuple[tuple[str, Any], ...] = tuple(
    (name, Question.__dataclass_fields__[name].default)
    for name in QUESTION_ATTRIBUTES
    if name not in ("extra", "origin")
)


@dataclass(frozen=True, slots=True)
class Card:
    """A card (or a booklet number) holding one or more questions, as the reader holds it.

    ``type`` says what kind of card it is (``"booklet"`` for a booklet number with its slots, ``"category"`` for
    a card with one question per category, or a card type such as ``"double"``), ``pack`` the pack it belongs
    to, ``topic`` the booklet topic or card topic, and ``extra`` anything else the set printed on it (for a
    booklet number: ``{"number": 325}``). Each question carries its own topic, penalty or slot in its
    ``extra`` (see :mod:`mindtable.trivia.sets`).

    >>> card = Card(id="c1", type="category", questions=(Question(id="c1/sport", kind="truefalse",
    ...             prompt="Chess is a sport.", answer="true", category="sport"),))
    >>> Card.from_dict(card.to_dict()) == card
    True
    """

    id: str
    questions: tuple[Question, ...]
    type: str = ""
    pack: str = ""
    topic: str = ""
    language: str = "en"
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)
    origin: Origin = field(default_factory=Origin, compare=False, hash=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "questions": [question_to_dict(q) for q in self.questions]}
        for name in ("type", "pack", "topic"):
            value = getattr(self, name)
            if value:
                out[name] = value
        if self.language != "en":
            out["language"] = self.language
        if self.extra:
            out["extra"] = dict(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Card:
        """The :class:`Card` of :meth:`to_dict`'s JSON; a card without an ``id`` or questions raises ``ValueError``.

        As for :func:`question_from_dict`, the same JSON (the same marshal bytes) gives the card already built: a
        quiz game opens its ask step on a card dict and reads it back as a card at every question of it."""
        if cls is not Card:
            return cls._from_dict(data)
        try:
            key = marshal.dumps(data, 2)  # type: ignore[arg-type]  # a dict of plain data, or ValueError
        except ValueError:  # not plain data (a Mapping of another type): built every time
            return cls._from_dict(data)
        known = _CARDS.get(key)
        if known is None:
            known = cls._from_dict(data)
            if len(_CARDS) >= CARD_CACHE_SIZE:
                _CARDS.clear()
            _CARDS[key] = known
        return known

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> Card:
        if not isinstance(data.get("id"), str):
            raise ValueError("card.id: missing or not a text")
        questions = data.get("questions")
        if not isinstance(questions, list) or not questions:
            raise ValueError("card.questions: must be a non-empty list")
        return cls(
            id=data["id"],
            questions=tuple(question_from_dict(q) for q in questions),
            type=str(data.get("type", "")),
            pack=str(data.get("pack", "")),
            topic=str(data.get("topic", "")),
            language=str(data.get("language", "en")),
            extra=dict(data.get("extra", {})),
        )

    def question(self, key: int | str) -> tuple[int, Question]:
        """The question at index ``key``, or the one whose category is ``key``; ``KeyError`` if none."""
        if isinstance(key, int):
            return key, self.questions[key]
        for index, q in enumerate(self.questions):
            if q.category == key:
                return index, q
        raise KeyError(f"card {self.id} has no question for {key!r}")
