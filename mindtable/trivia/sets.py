"""Question sets: booklets, typed cards and category cards, read from YAML files and validated with file, line
and field errors — and made from any plain bank, so every bank can feed every quiz game.

Four shapes of file, told apart by their top-level keys (``docs/trivia.md`` has the full reference):

* **booklet** (``booklet: <topic>``, Carrera de Mente): ``questions`` each with a ``number`` of three dice
  (111–666, digits 1–6) and a ``slot`` 1–3 (rising difficulty: the third question of a number is the hardest),
  besides the usual question fields (answer in capitals with an optional bracketed explanation, optional
  a/b/c ``options``). Each number becomes one :class:`~mindtable.trivia.model.Card` whose questions are its
  slots in order.
* **typed cards** (``type: <card type>``, Caída Libre): ``cards`` each with an ``id`` and a ``pack``, and the
  type's own keys (:data:`CARD_TYPES`): two ``questions`` with ``topic`` and ``penalty`` (double), one
  four-option question (roulette), a list to name (quote5), two ``comparisons`` (more_or_less), two
  ``facts`` (fake_news), five ``statements`` one per topic (shootout).
* **category cards** (``cards:`` whose ``questions`` is a mapping, Eesti mälumäng): one question per category,
  six categories (:data:`CARD_CATEGORIES`, or the file's own ``categories:`` list).
* **bank** (``questions:``): plain questions (:mod:`mindtable.trivia.bank`), one card per question.

>>> s = parse_set(BOOKLET_EXAMPLE, "sports.yaml")
>>> s.shape, s.topic, [c.id for c in s.cards], [q.extra["slot"] for q in s.cards[0].questions]
('booklet', 'sports', ['sports-325'], [1, 2])
>>> pick_booklet_question(s.cards, 325, used=["sports-325-1"]).id
'sports-325-2'
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from mindtable.core.rng import Rng
from mindtable.trivia.bank import (
    BANK_SUFFIXES,
    BankError,
    Problem,
    _Collector,
    _load_yaml,
    _Loader,
    _node_line,
    _type_name,
    parse_bank_text,
    question_from_data,
)
from mindtable.trivia.categories import TopicMap, category_key
from mindtable.trivia.model import DIFFICULTIES, Card, Origin, Question

BOOKLET_EXAMPLE = """
title: Sports
language: en
booklet: sports
questions:
  - {id: sports-325-1, number: 325, slot: 1, difficulty: easy, question: How many players in a rugby union team?,
     answer: FIFTEEN (15), value: 15}
  - {id: sports-325-2, number: 325, slot: 2, difficulty: medium, question: Which country won the 1930 World Cup?,
     answer: URUGUAY, options: [Argentina, Uruguay, Brazil]}
"""

SHAPES = ("booklet", "cards", "category_cards", "bank")
#: The six categories of a category card (Eesti mälumäng), in the order printed on the card.
CARD_CATEGORIES = ("history", "culture", "science", "geography", "sport", "varia")
#: The five topics of Caída Libre's shootout, in the order of the card.
SHOOTOUT_TOPICS = ("history", "geography", "science", "arts", "sport")


@dataclass(frozen=True)
class CardType:
    """What a card of a type holds: ``entries`` is the key of its list of questions (``None``: the card itself is
    one question), ``size`` how many, ``kind`` the question kind, ``fields`` the keys each entry may carry on
    top of the question fields, ``rename`` keys renamed to the question fields."""

    name: str
    entries: str | None
    size: int
    kind: str | None
    fields: tuple[str, ...] = ()
    rename: Mapping[str, str] = field(default_factory=dict)
    required: tuple[str, ...] = ()


CARD_TYPES: dict[str, CardType] = {
    "double": CardType("double", "questions", 2, None, ("topic", "penalty"), required=("topic", "penalty")),
    "roulette": CardType("roulette", None, 1, "choice", ("topic",)),
    "quote5": CardType("quote5", None, 1, "list", ("topic",)),
    "more_or_less": CardType("more_or_less", "comparisons", 2, "higher"),
    "fake_news": CardType("fake_news", "facts", 2, "truefalse", rename={"statement": "question"}),
    "shootout": CardType(
        "shootout", "statements", 5, "truefalse", ("topic",), rename={"statement": "question"}, required=("topic",)
    ),
}
ROULETTE_OPTIONS = 4

_SET_FIELDS = {
    "booklet": ("title", "description", "language", "booklet", "check", "questions"),
    "cards": ("title", "description", "language", "type", "check", "cards"),
    "category_cards": ("title", "description", "language", "categories", "check", "cards"),
}


@dataclass
class QuestionSet:
    """A loaded set file: its ``shape`` (one of :data:`SHAPES`), its cards, and what the file says of them."""

    path: Path
    shape: str
    title: str = ""
    language: str = "en"
    topic: str = ""
    type: str = ""
    cards: list[Card] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def questions(self) -> list[Question]:
        return [q for card in self.cards for q in card.questions]

    def packs(self) -> dict[str, list[Card]]:
        """The cards by pack name (in the order they appear)."""
        out: dict[str, list[Card]] = {}
        for card in self.cards:
            out.setdefault(card.pack, []).append(card)
        return out


# --- parsing --------------------------------------------------------------------------------------------------


def detect_shape(data: Any) -> str | None:
    """Which shape a parsed set file has, from its top-level keys."""
    if not isinstance(data, dict):
        return None
    if "booklet" in data:
        return "booklet"
    if "cards" in data:
        if "type" in data:
            return "cards"
        return "category_cards"
    if "questions" in data:
        return "bank"
    return None


def parse_set(text: str, file: str = "<text>") -> QuestionSet:
    """Parse and validate a set file's text; raises :class:`~mindtable.trivia.bank.BankError` listing every
    problem, each with its file, line and field."""
    qset, problems = validate_set_text(text, file)
    if qset is None:
        raise BankError(problems)
    return qset


def validate_set_text(text: str, file: str = "<text>") -> tuple[QuestionSet | None, list[Problem]]:
    """Like :func:`parse_set`, returning ``(set or None, problems)``; warnings come back with a set."""
    item_lines: list[int] = []  # the line of each item of a top-level ``questions`` list, from the reader
    try:
        data = _load_yaml(text, item_lines)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return None, [
            Problem(file, mark.line + 1 if mark else 0, "", f"not valid YAML: {getattr(exc, 'problem', exc)}")
        ]
    shape = detect_shape(data)
    if shape is None:
        message = (
            "the file is empty" if data is None else "not a question set: expected 'booklet:', 'cards:' or 'questions:'"
        )
        return None, [Problem(file, 1, "", message)]
    if shape == "bank":
        bank, problems = parse_bank_text(text, file)
        if bank is None:
            return None, problems
        cards = [
            Card(q.id, (q,), type="question", topic=q.category, language=q.language, origin=q.origin)
            for q in bank.questions
        ]
        return QuestionSet(Path(file), "bank", bank.title, bank.language, bank.category, "", cards), problems
    c = _Collector(file)
    warnings: list[tuple[tuple[str | int, ...], str]] = []
    composed: list[Any] = []

    def root() -> Any:
        # The parser's node tree gives every other line; it costs as much as reading the file, so it is made
        # only when a line the reader did not give is asked for (a problem, or the items of cards).
        if not composed:
            composed.append(yaml.compose(text, Loader=_Loader))
        return composed[0]

    def line(path: tuple[str | int, ...]) -> int:
        if len(path) == 2 and path[0] == "questions" and isinstance(path[1], int) and path[1] < len(item_lines):
            return item_lines[path[1]]
        return _node_line(root(), path, False)

    for key in data:
        if key not in _SET_FIELDS[shape]:
            c.error((str(key),), f"unknown field {key!r}; allowed fields: {', '.join(_SET_FIELDS[shape])}", key=True)
    defaults: dict[str, Any] = {}
    for name in ("language", "check"):
        if name in data:
            if isinstance(data[name], str) and data[name].strip():
                defaults[name] = data[name].strip()
            else:
                c.error((name,), f"must be a text, got {_type_name(data[name])}")
    language = defaults.get("language", "en")
    qset = QuestionSet(Path(file), shape, str(data.get("title", "") or ""), language)
    if shape == "booklet":
        _parse_booklet(data, qset, c, defaults, line, warnings)
    elif shape == "cards":
        _parse_typed(data, qset, c, defaults, line)
    else:
        _parse_category(data, qset, c, defaults, line)
    qset.warnings = [Problem(file, line(p), _field(p), m, "warning") for p, m in warnings]
    if c.errors:
        problems = [Problem(file, _node_line(root(), p, key), _field(p), m) for p, key, m in c.errors]
        return None, problems + qset.warnings
    return qset, list(qset.warnings)


def _field(path: Sequence[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _question(
    data: dict[str, Any],
    path: tuple[str | int, ...],
    c: _Collector,
    defaults: Mapping[str, Any],
    file: str,
    line: int,
    extra: Mapping[str, Any],
) -> Question | None:
    q = question_from_data(data, path, c, defaults, file, line)
    if q is None:
        return None
    return replace(q, extra={**q.extra, **extra})


def valid_number(value: Any) -> bool:
    """Whether ``value`` is a question number of three dice: 111–666 with digits 1–6."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and 111 <= value <= 666
        and set(str(value)) <= set("123456")
    )


def _parse_booklet(
    data: dict[str, Any], qset: QuestionSet, c: _Collector, defaults: dict[str, Any], line: Any, warnings: list[Any]
) -> None:
    topic = data.get("booklet")
    if not isinstance(topic, str) or not topic.strip():
        c.error(("booklet",), f"must be the booklet's topic key (such as sports), got {_type_name(topic)}")
        topic = ""
    qset.topic = topic = topic.strip()
    defaults["category"] = topic
    items = data.get("questions")
    if not isinstance(items, list) or not items:
        c.error(("questions",), f"must be a non-empty list of questions, got {_type_name(items)}")
        return
    numbers: dict[int, dict[int, tuple[Question, int]]] = {}
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        path: tuple[str | int, ...] = ("questions", i)
        if not isinstance(item, dict):
            c.error(path, f"a question must be a mapping of fields, got {_type_name(item)}")
            continue
        body = {k: v for k, v in item.items() if k not in ("number", "slot")}
        number, slot = item.get("number"), item.get("slot")
        ok = True
        if not valid_number(number):
            c.error(
                (*path, "number"),
                f"must be a number of three dice, 111 to 666 with digits 1-6, got {_type_name(number)}",
            )
            ok = False
        if isinstance(slot, bool) or slot not in (1, 2, 3):
            c.error((*path, "slot"), f"must be 1, 2 or 3 (the third is the hardest), got {_type_name(slot)}")
            ok = False
        options = body.get("options")
        if isinstance(options, list) and not 2 <= len(options) <= 3:
            c.error((*path, "options"), f"a booklet question has 2 or 3 options (a, b, c), got {len(options)}")
        q = _question(body, path, c, defaults, str(qset.path), line(path), {"number": number, "slot": slot})
        if q is None or not ok:
            continue
        if q.id in seen:
            c.error((*path, "id"), f"duplicate id {q.id!r} (first used by question {seen[q.id] + 1})")
            continue
        seen[q.id] = i
        assert isinstance(number, int) and isinstance(slot, int)
        slots = numbers.setdefault(number, {})
        if slot in slots:
            c.error((*path, "slot"), f"number {number} already has a slot {slot} (question {slots[slot][1] + 1})")
            continue
        slots[slot] = (q, i)
    rank = {d: k for k, d in enumerate(DIFFICULTIES)}
    for number in sorted(numbers):
        # A booklet may be cut into several files, a number's slots among them (slots 1–2 in one, slot 3 in
        # another): within a file each slot once, in order; the game puts a number's slots together.
        slots = numbers[number]
        ordered = [slots[s][0] for s in sorted(slots)]
        ranks = [rank.get(q.difficulty or "medium", 1) for q in ordered]
        if ranks != sorted(ranks):
            warnings.append(
                (
                    ("questions", slots[max(slots)][1], "difficulty"),
                    f"number {number}: difficulty should rise with the slot",
                )
            )
        first_q = ordered[0]
        qset.cards.append(
            Card(
                f"{topic}-{number}",
                tuple(ordered),
                type="booklet",
                topic=topic,
                language=first_q.language,
                extra={"number": number},
                origin=first_q.origin,
            )
        )


def _pack(value: Any, path: tuple[str | int, ...], c: _Collector) -> str:
    if isinstance(value, bool) or value is None or not isinstance(value, (int, str)) or not str(value).strip():
        c.error(path, f"every card needs the name or number of its pack, got {_type_name(value)}")
        return ""
    if isinstance(value, int) and value < 1:
        c.error(path, f"a pack number starts at 1, got {value}")
    return str(value).strip()


def _card_id(card: Mapping[str, Any], path: tuple[str | int, ...], c: _Collector, seen: dict[str, int], i: int) -> str:
    cid = card.get("id")
    if isinstance(cid, bool) or not isinstance(cid, (str, int)) or not str(cid).strip():
        c.error((*path, "id"), "missing or empty: every card needs an id (unique in its file)")
        return ""
    cid = str(cid).strip()
    if cid in seen:
        c.error((*path, "id"), f"duplicate card id {cid!r} (first used by card {seen[cid] + 1})")
        return ""
    seen[cid] = i
    return cid


def _parse_typed(data: dict[str, Any], qset: QuestionSet, c: _Collector, defaults: dict[str, Any], line: Any) -> None:
    kind = data.get("type")
    spec = CARD_TYPES.get(kind) if isinstance(kind, str) else None
    if spec is None:
        c.error(("type",), f"must be one of {', '.join(CARD_TYPES)}, got {_type_name(kind)}")
        return
    qset.type = spec.name
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        c.error(("cards",), f"must be a non-empty list of cards, got {_type_name(cards)}")
        return
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        path: tuple[str | int, ...] = ("cards", i)
        if not isinstance(card, dict):
            c.error(path, f"a card must be a mapping, got {_type_name(card)}")
            continue
        n_errors = len(c.errors)
        cid = _card_id(card, path, c, seen, i)
        pack = _pack(card.get("pack"), (*path, "pack"), c)
        questions: list[Question] = []
        card_topic = ""
        if spec.entries is None:
            body = {k: v for k, v in card.items() if k not in ("pack", *spec.fields)}
            if spec.kind is not None:
                body.setdefault("kind", spec.kind)
            topic = card.get("topic")
            if "topic" in card and not (isinstance(topic, str) and topic.strip()):
                c.error((*path, "topic"), f"must be a text, got {_type_name(topic)}")
            card_topic = str(topic or "").strip()
            if spec.name == "roulette":
                options = card.get("options")
                if not isinstance(options, list) or len(options) != ROULETTE_OPTIONS:
                    c.error(
                        (*path, "options"),
                        f"a roulette card has exactly {ROULETTE_OPTIONS} options (a-d), got {_type_name(options)}",
                    )
            extra: dict[str, Any] = {"topic": card_topic} if card_topic else {}
            body["category"] = category_key(card_topic) or "" if card_topic else ""
            q = _question(body, path, c, defaults, str(qset.path), line(path), extra)
            if q is not None:
                questions.append(q)
        else:
            entries = card.get(spec.entries)
            unknown = [k for k in card if k not in ("id", "pack", spec.entries, "note", "check")]
            for key in unknown:
                c.error(
                    (*path, str(key)),
                    f"unknown field {key!r}; a {spec.name} card has id, pack, {spec.entries}",
                    key=True,
                )
            if not isinstance(entries, list) or len(entries) != spec.size:
                got = f"{len(entries)}" if isinstance(entries, list) else _type_name(entries)
                c.error((*path, spec.entries), f"a {spec.name} card has exactly {spec.size} {spec.entries}, got {got}")
                entries = entries if isinstance(entries, list) else []
            for j, entry in enumerate(entries):
                epath: tuple[str | int, ...] = (*path, spec.entries, j)
                if not isinstance(entry, dict):
                    c.error(epath, f"must be a mapping, got {_type_name(entry)}")
                    continue
                for name in spec.required:
                    if name not in entry:
                        c.error((*epath, name), f"missing: every entry of a {spec.name} card needs its {name}")
                body = {spec.rename.get(k, k): v for k, v in entry.items() if k not in spec.fields}
                body["id"] = f"{cid}/{j + 1}"
                if spec.kind is not None:
                    body.setdefault("kind", spec.kind)
                extra = {}
                topic = entry.get("topic")
                if "topic" in entry:
                    if not isinstance(topic, str) or not topic.strip():
                        c.error((*epath, "topic"), f"must be a text, got {_type_name(topic)}")
                    else:
                        extra["topic"] = topic.strip()
                        body["category"] = category_key(topic) or ""
                if spec.name == "shootout" and isinstance(topic, str) and topic not in SHOOTOUT_TOPICS:
                    c.error((*epath, "topic"), f"must be one of {', '.join(SHOOTOUT_TOPICS)}, got {topic!r}")
                if "penalty" in entry:
                    penalty = entry["penalty"]
                    if isinstance(penalty, bool) or not isinstance(penalty, int) or penalty <= 0 or penalty % 10:
                        c.error(
                            (*epath, "penalty"),
                            f"must be IQ points, a positive multiple of 10, got {_type_name(penalty)}",
                        )
                    else:
                        extra["penalty"] = penalty
                q = _question(body, epath, c, defaults, str(qset.path), line(epath), extra)
                if q is not None:
                    questions.append(q)
            if spec.name == "double" and len(questions) == 2:
                penalties = [q.extra.get("penalty") for q in questions]
                if penalties[0] == penalties[1]:
                    c.error(
                        (*path, "questions", 1, "penalty"),
                        "the two questions of a double card have different penalties",
                    )
        if len(c.errors) > n_errors or not questions:
            continue
        qset.cards.append(
            Card(
                cid,
                tuple(questions),
                type=spec.name,
                pack=pack,
                topic=card_topic,
                language=qset.language,
                origin=Origin(str(qset.path), line(path)),
            )
        )


def _parse_category(
    data: dict[str, Any], qset: QuestionSet, c: _Collector, defaults: dict[str, Any], line: Any
) -> None:
    categories = data.get("categories", list(CARD_CATEGORIES))
    if not isinstance(categories, list) or not categories or not all(isinstance(x, str) for x in categories):
        c.error(("categories",), f"must be a list of category keys, got {_type_name(categories)}")
        return
    qset.type = "category"
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        c.error(("cards",), f"must be a non-empty list of cards, got {_type_name(cards)}")
        return
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        path: tuple[str | int, ...] = ("cards", i)
        if not isinstance(card, dict):
            c.error(path, f"a card must be a mapping with id and questions, got {_type_name(card)}")
            continue
        n_errors = len(c.errors)
        for key in card:
            if key not in ("id", "pack", "questions"):
                c.error((*path, str(key)), f"unknown field {key!r}; a category card has id, pack, questions", key=True)
        cid = _card_id(card, path, c, seen, i)
        pack = _pack(card["pack"], (*path, "pack"), c) if "pack" in card else ""
        questions = card.get("questions")
        if not isinstance(questions, dict):
            c.error((*path, "questions"), f"must map each category ({', '.join(categories)}) to its question")
            continue
        missing = [k for k in categories if k not in questions]
        if missing:
            c.error((*path, "questions"), f"one question per category: missing {', '.join(missing)}")
        out: list[Question] = []
        for key, body in questions.items():
            qpath: tuple[str | int, ...] = (*path, "questions", str(key))
            if key not in categories:
                c.error(qpath, f"unknown category {key!r}; the categories are {', '.join(categories)}", key=True)
                continue
            if not isinstance(body, dict):
                c.error(qpath, f"a question must be a mapping of fields, got {_type_name(body)}")
                continue
            q = _question(
                {**body, "id": f"{cid}/{key}", "category": key}, qpath, c, defaults, str(qset.path), line(qpath), {}
            )
            if q is not None:
                out.append(q)
        if len(c.errors) > n_errors:
            continue
        out.sort(key=lambda q: categories.index(q.category))
        qset.cards.append(
            Card(
                cid,
                tuple(out),
                type="category",
                pack=pack,
                language=qset.language,
                origin=Origin(str(qset.path), line(path)),
            )
        )


def validate_set(path: str | os.PathLike[str]) -> tuple[QuestionSet | None, list[Problem]]:
    """Load and validate the set file at ``path``: ``(set or None, problems)``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem(str(p), p.read_bytes().count(b"\n", 0, exc.start) + 1, "", "not valid UTF-8")]
    except OSError as exc:
        return None, [Problem(str(p), 0, "", f"cannot read: {exc.strerror or exc}")]
    qset, problems = validate_set_text(text, str(p))
    if qset is not None:
        qset.path = p
    return qset, problems


def load_set(path: str | os.PathLike[str]) -> QuestionSet:
    """Load a set file of any shape; raises :class:`~mindtable.trivia.bank.BankError` with every problem."""
    qset, problems = validate_set(path)
    if qset is None:
        raise BankError(problems)
    return qset


def load_sets(paths: Iterable[str | os.PathLike[str]]) -> list[QuestionSet]:
    """Every set file named (directories: every YAML file below them, sorted)."""
    out: list[QuestionSet] = []
    for target in paths:
        p = Path(target)
        files = sorted(f for s in BANK_SUFFIXES for f in p.rglob(f"*{s}")) if p.is_dir() else [p]
        out.extend(load_set(f) for f in files)
    return out


# --- booklet look-up ------------------------------------------------------------------------------------------


def pick_booklet_question(cards: Sequence[Card], number: int, used: Iterable[str] = ()) -> Question | None:
    """The question a booklet gives for ``number`` (Carrera de Mente, "The Questions"): the first unused slot
    of that number; when all its slots are used — or the booklet has no such number — the first unused question
    of the following number the booklet holds (wrapping after 666). ``None`` when every question is used."""
    used_ids = set(used)
    ordered = sorted(cards, key=lambda c: int(c.extra.get("number", 0)))
    if not ordered:
        return None
    start = next((i for i, c in enumerate(ordered) if int(c.extra.get("number", 0)) >= number), 0)
    for k in range(len(ordered)):
        for q in ordered[(start + k) % len(ordered)].questions:
            if q.id not in used_ids:
                return q
    return None


# --- generated sets (any bank feeds any quiz game) ------------------------------------------------------------

_RANK = {"easy": 0, "medium": 1, "hard": 2}
ALL_NUMBERS = tuple(int(f"{a}{b}{c}") for a in range(1, 7) for b in range(1, 7) for c in range(1, 7))


def _rank(q: Question) -> int:
    return _RANK.get(q.difficulty or "medium", 1)


def _shuffled(items: Sequence[Any], seed: int, salt: str) -> list[Any]:
    out = list(items)
    Rng(hash_seed(seed, salt)).shuffle(out)
    return out


def hash_seed(seed: int, salt: str) -> int:
    """A seed for one generated part (stable across runs and machines)."""
    value = seed & 0xFFFFFFFF
    for ch in salt:
        value = (value * 1_000_003 + ord(ch)) & 0xFFFFFFFFFFFF
    return value


def by_topic(questions: Iterable[Question], topics: TopicMap) -> dict[str, list[Question]]:
    """``questions`` grouped by the game topic their category maps to (unmapped ones left out)."""
    out: dict[str, list[Question]] = {t: [] for t in topics.topics}
    for q in questions:
        topic = topics.topic_of(q.category)
        if topic is not None:
            out[topic].append(q)
    return out


def make_booklets(questions: Iterable[Question], topics: TopicMap, seed: int = 0) -> dict[str, list[Card]]:
    """Booklets from plain questions: grouped by the game's ``topics``, then numbered and slotted
    deterministically from ``seed``: each number gets up to three questions, easiest in slot 1. A booklet holds
    at most 216 × 3 questions."""
    out: dict[str, list[Card]] = {}
    for topic, pool in by_topic(questions, topics).items():
        pool = sorted(_shuffled(pool, seed, f"booklet/{topic}"), key=_rank)
        numbers = sorted(_shuffled(ALL_NUMBERS, seed, f"numbers/{topic}")[: max(1, -(-len(pool) // 3))])
        per = -(-len(pool) // len(numbers)) if pool else 0
        cards = []
        # Deal easy questions to slot 1 of every number first, then slot 2, then slot 3.
        slots: list[list[Question]] = [[] for _ in numbers]
        for i, q in enumerate(pool[: len(numbers) * 3]):
            slots[i % len(numbers)].append(q)
        for number, group in zip(numbers, slots, strict=True):
            if not group or per == 0:
                continue
            group.sort(key=_rank)
            qs = tuple(
                replace(
                    q,
                    id=f"{topic}-{number}-{k + 1}",
                    category=topic,
                    extra={**q.extra, "number": number, "slot": k + 1, "source": q.id},
                )
                for k, q in enumerate(group)
            )
            cards.append(
                Card(
                    f"{topic}-{number}",
                    qs,
                    type="booklet",
                    topic=topic,
                    language=qs[0].language,
                    extra={"number": number},
                )
            )
        out[topic] = cards
    return out


def make_category_cards(questions: Iterable[Question], topics: TopicMap, seed: int = 0) -> list[Card]:
    """Category cards from plain questions: one question of each of the game's ``topics`` per card, as many
    cards as the smallest topic allows, deterministically from ``seed``."""
    pools = {t: _shuffled(p, seed, f"cards/{t}") for t, p in by_topic(questions, topics).items()}
    count = min((len(p) for p in pools.values()), default=0)
    cards = []
    for i in range(count):
        cid = f"gen-{i + 1:03d}"
        qs = tuple(
            replace(pools[t][i], id=f"{cid}/{t}", category=t, extra={**pools[t][i].extra, "source": pools[t][i].id})
            for t in topics.topics
        )
        cards.append(Card(cid, qs, type="category", language=qs[0].language))
    return cards


_PENALTY = {0: 40, 1: 30, 2: 20}


def _typed_pool(questions: Sequence[Question], kind: str) -> list[Question]:
    if kind == "double":
        return [q for q in questions if q.kind in ("text", "number")]
    if kind == "roulette":
        return [q for q in questions if len(q.options) >= ROULETTE_OPTIONS and q.correct is not None]
    if kind == "quote5":
        return [q for q in questions if q.kind == "list"]
    if kind == "more_or_less":
        return [q for q in questions if q.kind == "higher"]
    return [q for q in questions if q.kind == "truefalse"]


def make_typed_cards(
    questions: Iterable[Question], card_type: str, topics: TopicMap, seed: int = 0, packs: int = 5
) -> list[Card]:
    """Cards of ``card_type`` (:data:`CARD_TYPES`) from plain questions of the kinds it needs, deterministically
    from ``seed`` and dealt round-robin into ``packs`` packs: double (two text questions, the easier one with the
    bigger penalty), roulette (questions with at least four options, four kept), quote5 (list questions),
    more_or_less (two "which is higher" questions), fake_news (two true/false statements), shootout (five
    true/false statements, one of each topic)."""
    if card_type not in CARD_TYPES:
        raise ValueError(f"card type must be one of {', '.join(CARD_TYPES)}, got {card_type!r}")
    spec = CARD_TYPES[card_type]
    pool = _shuffled(_typed_pool(list(questions), card_type), seed, f"typed/{card_type}")
    groups: list[tuple[Question, ...]] = []
    if card_type == "shootout":
        per_topic = by_topic(pool, topics)
        count = min(len(per_topic[t]) for t in SHOOTOUT_TOPICS)
        groups = [tuple(per_topic[t][i] for t in SHOOTOUT_TOPICS) for i in range(count)]
    else:
        size = spec.size
        groups = [tuple(pool[i : i + size]) for i in range(0, len(pool) - size + 1, size)]
    cards = []
    for i, group in enumerate(groups):
        cid = f"gen-{card_type}-{i + 1:03d}"
        qs = []
        if card_type == "double":
            easier = 0 if _rank(group[0]) <= _rank(group[1]) else 1
            penalties = [_PENALTY[_rank(q)] for q in group]
            if penalties[0] == penalties[1]:
                penalties[1 - easier] -= 10
        for j, q in enumerate(group):
            extra: dict[str, Any] = {**q.extra, "source": q.id}
            if card_type == "double":
                extra.update(
                    topic=topics.topic_name(topics.topic_of(q.category) or q.category, q.language)
                    if q.category
                    else "",
                    penalty=penalties[j],
                )
            if card_type == "shootout":
                extra["topic"] = SHOOTOUT_TOPICS[j]
            changed = replace(q, id=f"{cid}/{j + 1}", extra=extra)
            if card_type == "roulette":
                changed = _four_options(changed, seed)
            qs.append(changed)
        cards.append(Card(cid, tuple(qs), type=card_type, pack=str(i % packs + 1), language=qs[0].language))
    return cards


def _four_options(q: Question, seed: int) -> Question:
    assert q.correct is not None
    others = [i for i in range(len(q.options)) if i != q.correct][: ROULETTE_OPTIONS - 1]
    chosen = _shuffled([q.correct, *others], seed, f"options/{q.id}")
    options = tuple(q.options[i] for i in chosen)
    return replace(q, kind="choice", options=options, correct=chosen.index(q.correct), answer="")


# --- what a game consumes, and how many games a bank can feed -------------------------------------------------


@dataclass(frozen=True)
class GameProfile:
    """What one full game of a quiz game uses up, so that ``fit`` can say how many games a bank feeds. A quiz
    game declares it as its ``quiz_profile`` (trivia knows no game by name).

    ``shape`` is how the game holds its questions (``booklets``, ``category_cards`` or ``typed_cards``),
    ``topics`` how the categories of any bank feed the game's topics, and ``per_game`` how many of each unit a
    full game uses without a repeat: questions per booklet topic, category cards, or cards per card type. The
    figures are the game's documented assumptions; ``mindtable questions fit --per-game`` replaces them.
    """

    shape: str
    topics: TopicMap
    per_game: Mapping[str, int]
    note: str = ""

    def __post_init__(self) -> None:
        if self.shape not in GAME_SHAPES:
            raise ValueError(f"shape must be one of {', '.join(GAME_SHAPES)}, got {self.shape!r}")


#: How a quiz game holds its questions, and the shape of a set already made that way.
GAME_SHAPES = {"booklets": "booklet", "category_cards": "category_cards", "typed_cards": "cards"}


def quiz_profiles() -> dict[str, GameProfile]:
    """The registered games that declare a ``quiz_profile``, by id (a plugin's quiz game counts too)."""
    from mindtable.core.registry import available_game_ids, get_game

    out = {}
    for game_id in available_game_ids():
        profile = getattr(get_game(game_id), "quiz_profile", None)
        if isinstance(profile, GameProfile):
            out[game_id] = profile
    return out


@dataclass
class Fit:
    """How many full games a bank feeds: per unit (topic, cards, card type), the units available, the units a
    game needs, and the games they make; ``games`` is the smallest."""

    rows: list[tuple[str, int, int, int]]
    generated: bool
    note: str = ""

    @property
    def games(self) -> int:
        return min((row[3] for row in self.rows), default=0)


def fit(sets: Sequence[QuestionSet], profile: GameProfile, *, per_game: int | None = None, seed: int = 0) -> Fit:
    """How many full games of the game with this ``profile`` the ``sets`` can feed without a repeated question:
    sets already in the game's shape are used as they are; anything else is made into that shape
    (:func:`make_booklets`, :func:`make_category_cards`, :func:`make_typed_cards`) through the game's topic
    mapping."""
    needs = {unit: per_game or n for unit, n in profile.per_game.items()}
    topics = profile.topics
    native = GAME_SHAPES[profile.shape]
    own = [s for s in sets if s.shape == native]
    plain = [q for s in sets if s.shape != native for q in s.questions]
    available: dict[str, int] = {unit: 0 for unit in needs}
    if profile.shape == "booklets":
        for s in own:
            topic = topics.topic_of(s.topic) or s.topic
            available[topic] = available.get(topic, 0) + len(s.questions)
        for topic, cards in make_booklets(plain, topics, seed).items():
            available[topic] += sum(len(c.questions) for c in cards)
    elif profile.shape == "category_cards":
        available["cards"] = sum(len(s.cards) for s in own) + len(make_category_cards(plain, topics, seed))
    else:
        for s in own:
            available[s.type] = available.get(s.type, 0) + len(s.cards)
        for card_type in CARD_TYPES:
            available[card_type] += len(make_typed_cards(plain, card_type, topics, seed))
    rows = [(unit, available.get(unit, 0), need, available.get(unit, 0) // need) for unit, need in needs.items()]
    return Fit(rows, bool(plain), profile.note)
