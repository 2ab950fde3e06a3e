"""Question bank files (YAML), their schema and validation, and the bank search path.

A bank file holds one booklet or pack::

    title: Geography, easy
    language: en            # default for every question
    category: geography     # default for every question
    questions:
      - id: geo-001
        question: What is the capital of Australia?
        answer: CANBERRA (a planned city, chosen as a compromise)
        reject: [Sydney]
        options: [Sydney, Canberra, Melbourne]
      - id: geo-002
        question: The Danube flows into the Black Sea.
        answer: true

Errors name the file, the line and the field (``questions[1].answer``). See ``docs/trivia.md``.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import math
import operator
import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from mindtable.core.errors import MindtableError
from mindtable.trivia import fastyaml
from mindtable.trivia.model import (
    DIFFICULTIES,
    KINDS,
    OPTION_LETTERS,
    QUESTION_ATTRIBUTES,
    Origin,
    Question,
    build_question,
    format_number,
)

ENV_VAR = "MINDTABLE_QUESTION_PATH"
BANK_SUFFIXES = (".yaml", ".yml")

_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeLoader):  # type: ignore[misc]  # an alias of the C or the Python loader
    """The safe loader (LibYAML's C parser when available) where only true/false are booleans: in a Spanish or
    Estonian bank ``answer: no`` or ``answer: on`` is a text, not YAML 1.1's false/true."""


_BOOL_TAG = "tag:yaml.org,2002:bool"
_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _BOOL_TAG]
    for first, resolvers in _SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(_BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_Dumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@dataclass(frozen=True, slots=True)
class Problem:
    """A problem found in a file: where (file, line, field) and what. ``severity`` is error/warning/unsupported."""

    file: str
    line: int
    field: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class BankError(MindtableError, ValueError):
    """A bank file could not be loaded; ``problems`` lists every problem found, each with file/line/field."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        first = str(self.problems[0]) if self.problems else "invalid bank"
        more = f" (and {len(self.problems) - 1} more problems)" if len(self.problems) > 1 else ""
        super().__init__(first + more)


@dataclass(slots=True)
class Bank:
    """A loaded bank file."""

    path: Path
    title: str = ""
    language: str = "en"
    category: str = ""
    description: str = ""
    questions: list[Question] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem


# --- schema -------------------------------------------------------------------------------------------------

BANK_FIELDS = ("title", "description", "language", "category", "difficulty", "tags", "check", "questions")
QUESTION_FIELDS = (
    "id",
    "kind",
    "question",
    "answer",
    "accept",
    "reject",
    "options",
    "correct",
    "items",
    "count",
    "value",
    "tolerance",
    "tolerance_pct",
    "unit",
    "person",
    "category",
    "language",
    "difficulty",
    "tags",
    "check",
    "note",
    "extra",
)
_QUESTION_FIELD_SET = frozenset(QUESTION_FIELDS)
_PathT = tuple[str | int, ...]


class _Collector:
    def __init__(self, file: str) -> None:
        self.file = file
        self.errors: list[tuple[_PathT, bool, str]] = []  # (path, points at the key?, message)

    def error(self, path: _PathT, message: str, *, key: bool = False) -> None:
        self.errors.append((path, key, message))


def _field_name(path: _PathT) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _text_list(value: Any, path: _PathT, c: _Collector, *, allow_scalar: bool = True) -> tuple[str, ...]:
    if value is None:
        return ()
    if allow_scalar and isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return (str(value),)
    if not isinstance(value, list):
        c.error(path, f"must be a list of texts, got {_type_name(value)}")
        return ()
    if type(value) is list:  # the usual case first: every item a non-empty text
        texts = [item.strip() for item in value if type(item) is str]
        if len(texts) == len(value) and all(texts):
            return tuple(texts)
    out = []
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, (str, int, float)) or not str(item).strip():
            c.error((*path, i), f"must be a non-empty text, got {_type_name(item)}")
        else:
            out.append(str(item).strip())
    return tuple(out)


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{value!r} (true/false)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return repr(value) if value.strip() else "an empty text"
    return repr(value)


def _number(value: Any, path: _PathT, c: _Collector, *, minimum: float | None = None) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        c.error(path, f"must be a number, got {_type_name(value)}")
        return None
    if minimum is not None and value < minimum:
        c.error(path, f"must be at least {minimum:g}, got {value!r}")
        return None
    return float(value)


def _infer_kind(data: Mapping[str, Any]) -> str:
    if "items" in data:
        return "list"
    if "value" in data:
        return "number"
    if isinstance(data.get("answer"), bool):
        return "truefalse"
    if "options" in data and "answer" not in data:
        return "choice"
    return "text"


def _correct_index(
    data: Mapping[str, Any], options: tuple[str, ...], path: _PathT, c: _Collector, language: str
) -> int | None:
    correct = data.get("correct")
    if correct is not None:
        if isinstance(correct, bool):
            c.error((*path, "correct"), f"must be an option letter (a, b, …) or number, got {_type_name(correct)}")
            return None
        if isinstance(correct, int):
            index = correct - 1
        elif isinstance(correct, str) and len(correct.strip()) == 1 and correct.strip().lower() in OPTION_LETTERS:
            index = OPTION_LETTERS.index(correct.strip().lower())
        else:
            c.error(
                (*path, "correct"), f"must be an option letter (a, b, …) or number from 1, got {_type_name(correct)}"
            )
            return None
        if not 0 <= index < len(options):
            letters = ", ".join(OPTION_LETTERS[: len(options)])
            c.error((*path, "correct"), f"there is no option {correct!r}; the options are {letters}")
            return None
        return index
    answer = data.get("answer")
    if isinstance(answer, str) and answer.strip():
        from mindtable.trivia.judge import answer_keys

        plain = _plain(answer)
        matches = [i for i, option in enumerate(options) if isinstance(option, str) and _plain(option) == plain]
        if len(matches) != 1:
            keys = answer_keys(answer, language)
            matches = [i for i, option in enumerate(options) if answer_keys(option, language) & keys]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            c.error(
                (*path, "options"), "none of the options is the answer; say which is right with 'correct: <letter>'"
            )
        else:
            c.error((*path, "options"), "several options match the answer; say which is right with 'correct: <letter>'")
        return None
    c.error((*path, "correct"), "missing: say which option is right with 'correct: <letter>'")
    return None


def _plain(text: str) -> str:
    """The printed answer without its explanation, case folded: most option answers are found with this."""
    cut = text.find("(")
    return (text[:cut] if cut > 0 else text).strip().casefold()


def question_from_data(
    data: Any, path: _PathT, c: _Collector, defaults: Mapping[str, Any], file: str = "", line: int = 0
) -> Question | None:
    """Validate one question mapping; problems go to ``c``, with the field path of each."""
    if not isinstance(data, dict):
        c.error(path, f"a question must be a mapping of fields, got {_type_name(data)}")
        return None
    n_errors = len(c.errors)
    if not _QUESTION_FIELD_SET.issuperset(data):  # one C call for the usual question, every field known
        for key in data:
            if key not in _QUESTION_FIELD_SET:
                c.error(
                    (*path, str(key)), f"unknown field {key!r}; allowed fields: {', '.join(QUESTION_FIELDS)}", key=True
                )
    qid = data.get("id")
    if isinstance(qid, bool) or not isinstance(qid, (str, int)) or not str(qid).strip():
        c.error((*path, "id"), "missing or empty: every question needs an id (unique in its file)")
        qid = ""
    prompt = data.get("question")
    if not _is_text(prompt):
        c.error((*path, "question"), f"missing or empty: the question text is required, got {_type_name(prompt)}")
    kind = data["kind"] if "kind" in data else _infer_kind(data)
    if kind not in KINDS:
        c.error((*path, "kind"), f"must be one of {', '.join(KINDS)}, got {_type_name(kind)}")
        return None
    language = data.get("language", defaults.get("language", "en"))
    if not _is_text(language):
        c.error((*path, "language"), f"must be a language code such as en, es, et, got {_type_name(language)}")
        language = "en"
    difficulty = data.get("difficulty", defaults.get("difficulty"))
    if difficulty is not None and difficulty not in DIFFICULTIES:
        c.error((*path, "difficulty"), f"must be one of {', '.join(DIFFICULTIES)}, got {_type_name(difficulty)}")
        difficulty = None
    category = data.get("category", defaults.get("category", ""))
    if not isinstance(category, str):
        c.error((*path, "category"), f"must be a text, got {_type_name(category)}")
        category = ""
    raw = data.get("tags", defaults.get("tags"))
    tags = () if raw is None else _text_list(raw, (*path, "tags"), c)
    raw = data.get("accept")
    accepted = () if raw is None else _text_list(raw, (*path, "accept"), c)
    raw = data.get("reject")
    rejected = () if raw is None else _text_list(raw, (*path, "reject"), c)
    raw = data.get("options")
    options = () if raw is None else _text_list(raw, (*path, "options"), c, allow_scalar=False)
    person = data.get("person", False)
    if not isinstance(person, bool):
        c.error((*path, "person"), f"must be true or false, got {_type_name(person)}")
        person = False
    extra = data.get("extra", {})
    if not isinstance(extra, dict):
        c.error((*path, "extra"), f"must be a mapping, got {_type_name(extra)}")
        extra = {}
    for name in ("check", "note", "unit"):
        if name in data and not isinstance(data[name], str):
            c.error((*path, name), f"must be a text, got {_type_name(data[name])}")
    answer_value = data.get("answer")
    answer = ""
    correct: int | None = None
    items: tuple[str, ...] = ()
    count: int | None = None
    value = tolerance = tolerance_pct = None

    if kind == "truefalse":
        if not isinstance(answer_value, bool):
            c.error(
                (*path, "answer"),
                f"a true/false question needs 'answer: true' or 'answer: false', got {_type_name(answer_value)}",
            )
        answer = "true" if answer_value is True else "false"
    elif kind == "list":
        items = _text_list(data.get("items"), (*path, "items"), c, allow_scalar=False)
        if not items and "items" in data and not isinstance(data.get("items"), list):
            pass
        elif not items:
            c.error((*path, "items"), "a list question needs at least one accepted item")
        raw_count = data.get("count", len(items))
        if isinstance(raw_count, bool) or not isinstance(raw_count, int) or raw_count < 1:
            c.error((*path, "count"), f"must be a whole number of at least 1, got {_type_name(raw_count)}")
        elif items and raw_count > len(items):
            c.error((*path, "count"), f"asks for {raw_count} items but only {len(items)} are accepted")
        else:
            count = raw_count
        if answer_value is not None:
            c.error((*path, "answer"), "a list question has 'items', not 'answer'")
    elif kind == "number":
        value = _number(data.get("value"), (*path, "value"), c)
        if "value" not in data:
            c.error((*path, "value"), "a number question needs 'value'")
        tolerance = _number(data.get("tolerance"), (*path, "tolerance"), c, minimum=0)
        tolerance_pct = _number(data.get("tolerance_pct"), (*path, "tolerance_pct"), c, minimum=0)
        if answer_value is not None:
            if isinstance(answer_value, (str, int, float)) and not isinstance(answer_value, bool):
                answer = str(answer_value)
            else:
                c.error((*path, "answer"), f"must be a text, got {_type_name(answer_value)}")
        if options and len(options) >= 2 and value is not None:
            # A number with options (a, b, c): the right option is the one that says the number.
            printed = answer or format_number(value)
            correct = _correct_index({**data, "answer": printed}, options, path, c, language)
    else:
        if kind in ("choice", "higher"):
            if len(options) < 2:
                c.error((*path, "options"), f"a {kind} question needs at least two options")
            if kind == "higher" and len(options) != 2:
                c.error((*path, "options"), f"a 'which is higher' question has exactly two options, got {len(options)}")
        if isinstance(answer_value, (int, float)) and not isinstance(answer_value, bool):
            answer = str(answer_value)
        elif answer_value is not None and not _is_text(answer_value):
            c.error((*path, "answer"), f"must be a text, got {_type_name(answer_value)}")
        elif answer_value is not None:
            answer = str(answer_value).strip()
        if kind == "text" and not answer and not accepted:
            c.error((*path, "answer"), "missing: a text question needs the answer as printed")
        if options and len(options) >= 2:
            correct = _correct_index({**data, "answer": answer} if answer else data, options, path, c, language)
            if kind in ("choice", "higher") and answer and correct is not None and "correct" not in data:
                answer = ""  # the answer only named the option
    if len(c.errors) > n_errors:
        return None
    question: Question = build_question(  # every value validated above
        str(qid).strip(),
        kind,
        str(prompt).strip(),
        answer,
        accepted,
        rejected,
        options,
        correct,
        items,
        count,
        value,
        tolerance,
        tolerance_pct,
        str(data.get("unit", "")),
        person,
        category.strip(),
        str(language).strip(),
        difficulty,
        tags,
        str(data.get("check", defaults.get("check", "")) or ""),
        str(data.get("note", "") or ""),
        extra,
        Origin(file, line),
    )
    return question


# --- loading ------------------------------------------------------------------------------------------------


def _node_line(root: yaml.Node | None, path: _PathT, key: bool) -> int:
    """The 1-based line of the node at ``path`` (or of its key), as deep as the path exists."""
    node = root
    line = node.start_mark.line + 1 if node is not None else 0
    for i, part in enumerate(path):
        last = i == len(path) - 1
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == str(part):
                    node = value_node
                    collection = isinstance(value_node, (yaml.MappingNode, yaml.SequenceNode))
                    line = (key_node if (last and key) or collection else value_node).start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def parse_bank_text(text: str, file: str = "<text>", *, cache: bool = False) -> tuple[Bank | None, list[Problem]]:
    """Parse and validate bank text; returns the bank (``None`` if there were errors) and all problems.

    With ``cache``, large texts that validate are kept in the bank cache and read back from it (see
    :func:`bank_cache_dir`).
    """
    entry = _cache_entry(text) if cache else None
    if entry is not None:
        cached = _read_cached_bank(entry, file)
        if cached is not None:
            return cached, []
    lines: list[int] = []
    try:
        data = _load_yaml(text, lines)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        message = f"not valid YAML: {problem}" + (f" ({context})" if context else "")
        return None, [Problem(file, mark.line + 1 if mark else 0, "", message)]
    c = _Collector(file)
    bank = _bank_from_data(data, c, file, lines)
    if not c.errors:
        if entry is not None and bank is not None:
            _write_cached_bank(entry, bank)
        return bank, []
    root = yaml.compose(text, Loader=_Loader)
    problems = [Problem(file, _node_line(root, path, key), _field_name(path), msg) for path, key, msg in c.errors]
    return None, problems


# --- fast YAML loading ---------------------------------------------------------------------------------------
# Two shortcuts to yaml.load(text, Loader=_Loader), each handing over to the next on what it does not handle:
# 1. mindtable.trivia.fastyaml reads the plain block-YAML bank files are written in, a line at a time with
#    str methods (the fastest by far: no parser events, no nodes, no marks);
# 2. the event builder below takes any other plain data. PyYAML composes a node (with marks) for every scalar
#    and resolves its type in Python, which costs most of the time of a load; here the data is built straight
#    from the parser's events (LibYAML's C parser when available).
# Both send only the plain scalars that may be something other than text ("12", "true", "null", "2024-01-01")
# through PyYAML's resolver and constructor (_resolve_plain), so the result is exactly what yaml.load gives.
# Anything unusual (a merge key, a tag other than the standard scalar ones, several documents) falls back to
# yaml.load.


_Fallback = fastyaml.Fallback
FAST_READER = True  # tests switch the line reader off to compare it with the event builder and yaml.load


class _ScalarResolver(yaml.resolver.Resolver):
    yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers


_RESOLVER = _ScalarResolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_STR_TAG = "tag:yaml.org,2002:str"
_SCALAR_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "timestamp"))
_MAYBE_NOT_TEXT = fastyaml.MAYBE_NOT_TEXT
_MISSING = object()
_PLAIN_WORDS: dict[str, Any] = {
    word: value
    for value, words in ((True, "true True TRUE"), (False, "false False FALSE"), (None, "~ null Null NULL"))
    for word in words.split()
}
_PLAIN_WORDS[""] = None


def _scalar(event: Any) -> Any:
    value = event.value
    tag = event.tag
    if tag is not None and tag != "!":
        if tag not in _SCALAR_TAGS:
            raise _Fallback
        return _CONSTRUCTOR.construct_object(yaml.ScalarNode(tag, value), deep=True)
    if not event.implicit[0]:
        return value  # quoted or block scalar: text
    if value and value[0] not in _MAYBE_NOT_TEXT:
        return value
    return _resolve_plain(value)


def _resolve_plain(value: str) -> Any:
    """The value of a plain scalar whose first character is in ``_MAYBE_NOT_TEXT`` (or of the empty one), as the
    loader resolves and constructs it; a merge key ``<<`` or a value key ``=`` raises :class:`_Fallback` (let
    yaml.load deal with it)."""
    if value in _PLAIN_WORDS:
        return _PLAIN_WORDS[value]
    if value.isdigit() and value.isascii() and (value[0] != "0" or value == "0"):
        return int(value)
    resolved = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    if resolved == _STR_TAG:
        return value
    if resolved not in _SCALAR_TAGS:
        raise _Fallback
    return _CONSTRUCTOR.construct_object(yaml.ScalarNode(resolved, value), deep=True)


def _load_yaml(text: str, lines: list[int] | None = None) -> Any:
    """``yaml.load(text, Loader=_Loader)``: by the line reader, else built from parser events (see above);
    ``lines`` (when given) receives the line of each item of the top-level ``questions`` list."""
    if FAST_READER:
        fast_lines: list[int] = []
        try:
            data = fastyaml.load(text, _resolve_plain, fast_lines)
        except _Fallback:
            pass
        else:
            if lines is not None:
                lines[:] = fast_lines
            return data
    if lines is not None:
        lines.clear()
    try:
        return _load_from_events(text, lines)
    except _Fallback:
        if lines is not None:
            lines[:] = _top_level_item_lines(text)
        return yaml.load(text, Loader=_Loader)


def _load_from_events(text: str, lines: list[int] | None = None) -> Any:
    """The data of ``text`` built from parser events; ``lines`` (when given) receives the 1-based line of each
    item of the top-level ``questions`` list, from the parser's marks."""
    scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
    mapping_start, sequence_start = yaml.MappingStartEvent, yaml.SequenceStartEvent
    mapping_end, sequence_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
    document_start = yaml.DocumentStartEvent
    maybe_not_text, collection_tags = _MAYBE_NOT_TEXT, (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")
    plain_words = _PLAIN_WORDS
    anchors: dict[str, Any] = {}
    stack: list[Any] = []  # the open containers
    keys: list[Any] = []  # per open container: its pending key (_MISSING when none, or for a list)
    container: Any = None  # the innermost open container (stack[-1])
    key: Any = _MISSING
    root: Any = _MISSING
    questions: Any = None  # the top-level questions list, once seen
    documents = 0
    loader = _Loader(text)
    try:
        for event in iter(loader.get_event, None):
            kind = type(event)
            if kind is scalar_event:
                value = event.value
                if event.tag is None and (not event.implicit[0] or (value and value[0] not in maybe_not_text)):
                    pass  # quoted, block or plain text that cannot be anything else: the text itself
                elif event.tag is None and value in plain_words:
                    value = plain_words[value]  # true, false, null … as the resolver would have them
                elif event.tag is None and value.isdigit() and value.isascii() and (value[0] != "0" or value == "0"):
                    value = int(value)  # a decimal whole number (a leading 0 is YAML 1.1's octal: resolver)
                else:
                    value = _scalar(event)  # a merge key "<<" falls back
                if event.anchor:
                    anchors[event.anchor] = value
            elif kind is mapping_end or kind is sequence_end:
                stack.pop()
                keys.pop()
                if stack:
                    container, key = stack[-1], keys[-1]
                continue
            elif kind is mapping_start or kind is sequence_start:
                if event.tag not in collection_tags:
                    raise _Fallback
                value = {} if kind is mapping_start else []
                if event.anchor:
                    anchors[event.anchor] = value
                if len(stack) == 1 and key == "questions" and kind is sequence_start:
                    questions = value
            elif kind is alias_event:
                if event.anchor not in anchors:
                    raise _Fallback  # let yaml.load report it
                value = anchors[event.anchor]
            else:
                if kind is document_start:
                    documents += 1
                    if documents > 1:
                        raise _Fallback  # let yaml.load report it
                continue
            # add the value to the innermost container
            if container is None:
                root = value
            elif type(container) is list:
                if container is questions and lines is not None:
                    lines.append(event.start_mark.line + 1)
                container.append(value)
            elif key is _MISSING:
                if type(value) is dict or type(value) is list:
                    raise _Fallback  # a complex key
                key = keys[-1] = value
            else:
                container[key] = value
                key = keys[-1] = _MISSING
            if kind is mapping_start or kind is sequence_start:
                if stack:
                    keys[-1] = key
                stack.append(value)
                keys.append(_MISSING)
                container, key = value, _MISSING
    finally:
        loader.dispose()
    return None if root is _MISSING else root


# --- the bank cache -----------------------------------------------------------------------------------------

CACHE_ENV_VAR = "MINDTABLE_CACHE_DIR"
CACHE_MIN_BYTES = 64 * 1024
_CACHE_VERSION = b"mindtable-bank-cache-3 validated rows json\n"
#: the code a validated bank depends on (the judge is a package: every module of it)
_CODE_FILES = ("bank.py", "fastyaml.py", "model.py", "judge/*.py", "text.py")
_code_digest: bytes | None = None


def bank_cache_dir() -> Path | None:
    """Where validated large banks are cached: ``$MINDTABLE_CACHE_DIR`` (``off`` disables the cache), else
    ``$XDG_CACHE_HOME/mindtable/banks`` (``~/.cache/…``). Entries are keyed by a SHA-256 of the file's text, so
    an edited file is always parsed again; deleting the folder is always safe."""
    configured = os.environ.get(CACHE_ENV_VAR, "").strip()
    if configured.lower() in ("off", "0", "no", "false"):
        return None
    if configured:
        return Path(configured).expanduser() / "banks"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mindtable" / "banks"


@functools.lru_cache(maxsize=1)
def _release() -> str:
    """mindtable's installed version (part of the cache key)."""
    try:
        return metadata.version("mindtable")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "source"


def _cache_key(text: str) -> str:
    """The cache entry's name: a SHA-256 of everything the validated bank depends on — the text, the cache
    format, the Python version, the mindtable version and the code that validates (so an edited checkout never
    reads an entry an older validator wrote), the PyYAML version and whether LibYAML parsed it."""
    global _code_digest
    if _code_digest is None:
        code = hashlib.sha256()
        here = Path(__file__).resolve().parent
        for name in _CODE_FILES:
            for path in sorted(here.glob(name)) or [here / name]:
                try:
                    code.update(path.read_bytes())
                except OSError:
                    code.update(name.encode())
        _code_digest = code.digest()
    release = _release()
    h = hashlib.sha256()
    h.update(_CACHE_VERSION)
    h.update(
        f"{sys.implementation.name} {sys.version_info[:3]} mindtable {release} "
        f"yaml {yaml.__version__} {yaml.__with_libyaml__}\n".encode()
    )
    h.update(_code_digest)
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _cache_entry(text: str) -> Path | None:
    directory = bank_cache_dir() if len(text) >= CACHE_MIN_BYTES else None
    return None if directory is None else directory / (_cache_key(text) + ".json")


_BANK_ATTRIBUTES = ("title", "language", "category", "description")
_ROW_ATTRIBUTES = QUESTION_ATTRIBUTES[:-1]  # all but the origin; the row ends with the origin's line
_row_of = operator.attrgetter(*_ROW_ATTRIBUTES)


def _read_cached_bank(entry: Path, file: str) -> Bank | None:
    """The bank of a cache entry, or ``None`` when there is none or it is not a well-formed entry.

    An entry is JSON (data only: reading it never runs anything) that this module wrote after the bank
    validated, so its questions are built without validating again; an entry that does not have the shape
    written (hand-edited or truncated) is ignored and the file is parsed again."""
    try:
        data = json.loads(entry.read_bytes())
        header = [data[name] for name in _BANK_ATTRIBUTES]
        if not all(type(value) is str for value in header):
            return None
        rows = data["questions"]
        width = len(_ROW_ATTRIBUTES) + 1
        build, kinds, origin = build_question, KINDS, Origin
        for row in rows:  # the shape written: [every attribute but the origin …, line]
            if type(row) is not list or len(row) != width or row[1] not in kinds or type(row[-1]) is not int:
                return None
            row[-1] = origin(file, row[-1])
        questions: list[Question] = [build(*row) for row in rows]
    except (OSError, ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None
    title, language, category, description = header
    return Bank(Path(file), title, language, category, description, questions)


def _write_cached_bank(entry: Path, bank: Bank) -> None:
    """Keep a validated bank in the cache; banks holding what JSON cannot hold exactly (an ``extra`` with dates
    or number keys) and read-only caches are simply not cached."""
    rows = []
    for q in bank.questions:
        if q.extra and json.loads(json.dumps(q.extra, allow_nan=False)) != q.extra:
            return
        rows.append((*_row_of(q), q.origin.line))
    try:
        payload = json.dumps(
            {**{name: getattr(bank, name) for name in _BANK_ATTRIBUTES}, "questions": rows},
            ensure_ascii=False,
            allow_nan=False,
            separators=(",", ":"),
        )
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(payload, encoding="utf-8")
        os.replace(tmp, entry)
    except (OSError, ValueError, TypeError, RecursionError):
        pass


def _bank_from_data(data: Any, c: _Collector, file: str, lines: Sequence[int] = ()) -> Bank | None:
    if data is None:
        c.error((), "the file is empty; a bank needs 'questions:'")
        return None
    if not isinstance(data, dict):
        c.error((), f"a bank must be a mapping with 'questions:', got {_type_name(data)}")
        return None
    for key in data:
        if key not in BANK_FIELDS:
            c.error((str(key),), f"unknown field {key!r}; allowed fields: {', '.join(BANK_FIELDS)}", key=True)
    defaults: dict[str, Any] = {}
    for name in ("language", "category", "check"):
        if name in data:
            if not _is_text(data[name]):
                c.error((name,), f"must be a text, got {_type_name(data[name])}")
            else:
                defaults[name] = data[name].strip()
    if "difficulty" in data:
        if data["difficulty"] not in DIFFICULTIES:
            c.error(("difficulty",), f"must be one of {', '.join(DIFFICULTIES)}, got {_type_name(data['difficulty'])}")
        else:
            defaults["difficulty"] = data["difficulty"]
    if "tags" in data:
        defaults["tags"] = list(_text_list(data["tags"], ("tags",), c))
    questions = data.get("questions")
    if not isinstance(questions, list):
        c.error(("questions",), f"must be a list of questions, got {_type_name(questions)}")
        return None
    out: list[Question] = []
    seen: dict[str, int] = {}
    if len(lines) != len(questions):
        lines = [0] * len(questions)
    for i, item in enumerate(questions):
        q = question_from_data(item, ("questions", i), c, defaults, file, lines[i])
        if q is None:
            continue
        if q.id in seen:
            c.error(("questions", i, "id"), f"duplicate id {q.id!r} (first used by question {seen[q.id] + 1})")
            continue
        seen[q.id] = i
        out.append(q)
    return Bank(
        path=Path(file),
        title=str(data.get("title", "") or ""),
        language=defaults.get("language", "en"),
        category=defaults.get("category", ""),
        description=str(data.get("description", "") or ""),
        questions=out,
    )


_QUESTIONS_KEY = re.compile(r"^questions[ \t]*:", re.MULTILINE)
_LIST_ITEM = re.compile(r"^([ \t]*)-(?=[ \t]|$)", re.MULTILINE)
_TOP_LEVEL = re.compile(r"^[^\s#-]", re.MULTILINE)


def _top_level_item_lines(text: str) -> list[int]:
    """The 1-based line of each item of the top-level ``questions:`` block list (a cheap regex scan; empty
    when the list is written in flow style ``[...]``)."""
    key = _QUESTIONS_KEY.search(text)
    if key is None:
        return []
    start = text.find("\n", key.end()) + 1
    if start == 0:
        return []
    end_match = _TOP_LEVEL.search(text, start)
    end = end_match.start() if end_match else len(text)
    out: list[int] = []
    indent: str | None = None
    line = text.count("\n", 0, start) + 1
    pos = start
    for match in _LIST_ITEM.finditer(text, start, end):
        if indent is None:
            indent = match.group(1)
        if match.group(1) == indent:
            line += text.count("\n", pos, match.start())
            pos = match.start()
            out.append(line)
    return out


def load_bank(path: str | os.PathLike[str]) -> Bank:
    """Load and validate a bank file; raises :class:`BankError` listing every problem (file, line, field)."""
    bank, problems = validate_bank(path)
    if bank is None:
        raise BankError(problems)
    return bank


def validate_bank(path: str | os.PathLike[str]) -> tuple[Bank | None, list[Problem]]:
    """Like :func:`load_bank` but returns the problems instead of raising."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [Problem(str(p), 0, "", "file not found")]
    except UnicodeDecodeError as exc:
        return None, [Problem(str(p), text_line(p.read_bytes(), exc.start), "", "not valid UTF-8")]
    except OSError as exc:
        return None, [Problem(str(p), 0, "", f"cannot read: {exc.strerror or exc}")]
    enabled = gc.isenabled()
    gc.disable()  # loading builds hundreds of thousands of objects that all survive: collecting is wasted work
    try:
        bank, problems = parse_bank_text(text, str(p), cache=True)
    finally:
        if enabled:
            gc.enable()
    if bank is not None:
        bank.path = p
    return bank, problems


def text_line(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


# --- writing ------------------------------------------------------------------------------------------------


def question_to_data(q: Question, defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The bank-file mapping of a question, leaving out defaults (so hand-written files stay short)."""
    defaults = defaults or {}
    out: dict[str, Any] = {"id": q.id}
    if q.kind != _infer_kind(_inference_view(q)):
        out["kind"] = q.kind
    out["question"] = q.prompt
    if q.kind == "truefalse":
        out["answer"] = q.truth
    elif q.answer:
        out["answer"] = q.answer
    if q.accepted:
        out["accept"] = list(q.accepted)
    if q.rejected:
        out["reject"] = list(q.rejected)
    if q.options:
        out["options"] = list(q.options)
    if q.correct is not None:
        out["correct"] = OPTION_LETTERS[q.correct]
    if q.kind == "list":
        out["items"] = list(q.items)
        if q.count is not None and q.count != len(q.items):
            out["count"] = q.count
    for name in ("value", "tolerance", "tolerance_pct"):
        value = getattr(q, name)
        if value is not None:
            out[name] = int(value) if float(value).is_integer() else value
    if q.unit:
        out["unit"] = q.unit
    if q.person:
        out["person"] = True
    for name in ("category", "language", "difficulty", "check"):
        value = getattr(q, name)
        if value and value != defaults.get(name):
            out[name] = value
    if q.tags:
        out["tags"] = list(q.tags)
    if q.note:
        out["note"] = q.note
    if q.extra:
        out["extra"] = dict(q.extra)
    return out


def _inference_view(q: Question) -> dict[str, Any]:
    view: dict[str, Any] = {}
    if q.kind == "list":
        view["items"] = q.items
    if q.value is not None:
        view["value"] = q.value
    if q.kind == "truefalse":
        view["answer"] = True
    elif q.answer:
        view["answer"] = q.answer
    if q.options:
        view["options"] = q.options
    return view


def dump_bank(
    questions: Iterable[Question], *, title: str = "", language: str | None = None, category: str | None = None
) -> str:
    """Bank-file YAML for ``questions``; common language and category become file-level defaults."""
    qs = list(questions)
    if language is None:
        languages = {q.language for q in qs}
        language = languages.pop() if len(languages) == 1 else None
    if category is None:
        categories = {q.category for q in qs}
        category = categories.pop() if len(categories) == 1 and qs and qs[0].category else None
    data: dict[str, Any] = {}
    defaults: dict[str, Any] = {}
    if title:
        data["title"] = title
    if language:
        data["language"] = defaults["language"] = language
    if category:
        data["category"] = defaults["category"] = category
    data["questions"] = [question_to_data(q, defaults) for q in qs]
    if not language:
        for q, item in zip(qs, data["questions"], strict=True):
            item.setdefault("language", q.language)
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)


# --- the search path ----------------------------------------------------------------------------------------


def shipped_bank_dir() -> Path:
    """The banks that ship with mindtable (the default)."""
    return Path(__file__).resolve().parent / "banks"


def user_bank_dir() -> Path:
    """The user's own banks: ``$XDG_DATA_HOME/mindtable/questions`` (``~/.local/share/…``; ``%APPDATA%`` on
    Windows)."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "mindtable" / "questions"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mindtable" / "questions"


def search_path() -> list[Path]:
    """Where banks are looked for, first match wins: ``$MINDTABLE_QUESTION_PATH`` (entries separated by
    ``os.pathsep``), then :func:`user_bank_dir`, then :func:`shipped_bank_dir`."""
    out: list[Path] = []
    for entry in os.environ.get(ENV_VAR, "").split(os.pathsep):
        if entry.strip():
            out.append(Path(entry.strip()).expanduser())
    out.append(user_bank_dir())
    out.append(shipped_bank_dir())
    return out


@dataclass(frozen=True, slots=True)
class BankRef:
    """A bank file found on the search path; ``name`` is its path below the search directory, no suffix."""

    name: str
    path: Path
    root: Path


def find_banks(path: Sequence[Path] | None = None) -> list[BankRef]:
    """Every bank on the search path, sorted by name; a name found earlier on the path hides later ones."""
    found: dict[str, BankRef] = {}
    for root in path if path is not None else search_path():
        if not root.is_dir():
            continue
        for file in sorted(_bank_files(root)):
            name = file.relative_to(root).with_suffix("").as_posix()
            found.setdefault(name, BankRef(name, file, root))
    return [found[name] for name in sorted(found)]


def _bank_files(root: Path) -> Iterator[Path]:
    for suffix in BANK_SUFFIXES:
        yield from root.rglob(f"*{suffix}")


def resolve_bank(name: str, path: Sequence[Path] | None = None) -> Path:
    """The file of the bank called ``name`` (or ``name`` itself when it is an existing file)."""
    candidate = Path(name)
    if candidate.suffix in BANK_SUFFIXES and candidate.is_file():
        return candidate
    for ref in find_banks(path):
        if ref.name == name or ref.path.stem == name:
            return ref.path
    names = ", ".join(ref.name for ref in find_banks(path)) or "none"
    raise BankError([Problem(name, 0, "", f"no bank called {name!r} on the search path; available: {names}")])


def load_questions(
    language: str | None = None, names: Sequence[str] | None = None, path: Sequence[Path] | None = None
) -> list[Question]:
    """Questions from the banks on the search path (all, or the named ones), optionally of one language."""
    refs = [resolve_bank(n, path) for n in names] if names else [ref.path for ref in find_banks(path)]
    out: list[Question] = []
    for file in refs:
        out.extend(q for q in load_bank(file).questions if language is None or q.language == language)
    return out
