"""Open Trivia DB JSON (``{"results": [...]}``) with its three encodings: HTML entities (the API default),
``url3986`` (percent-encoding) and ``base64``.

Multiple-choice questions become ``choice`` questions (the right option is put at a position that depends only
on the question text, so it is not always first); ``boolean`` questions become ``truefalse`` questions.
"""

from __future__ import annotations

import base64
import binascii
import html
import json
import urllib.parse
from typing import Any

from mindtable.trivia.formats.common import ExportResult, ImportResult, Source, clean, read_source, stable_position
from mindtable.trivia.model import Question

ENCODINGS = ("auto", "html", "url3986", "base64", "none")
_TYPE_WORDS = {"multiple", "boolean"}


def _decoder(encoding: str) -> Any:
    if encoding == "html":
        return html.unescape
    if encoding == "url3986":
        return urllib.parse.unquote
    if encoding == "base64":
        return lambda s: base64.b64decode(s, validate=True).decode("utf-8")
    return lambda s: s


def detect_encoding(results: list[Any]) -> str:
    """Guess the encoding from the ``type`` field (``multiple``/``boolean`` in clear unless base64)."""
    for item in results[:20]:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if isinstance(kind, str) and kind not in _TYPE_WORDS:
            try:
                if base64.b64decode(kind, validate=True).decode("utf-8") in _TYPE_WORDS:
                    return "base64"
            except (binascii.Error, UnicodeDecodeError):
                pass
        text = item.get("question", "")
        if isinstance(text, str) and " " not in text.strip() and "%20" in text:
            return "url3986"
    return "html"


def read_opentdb(
    source: Source, *, encoding: str = "auto", language: str = "en", prefix: str = "opentdb"
) -> ImportResult:
    """Read Open Trivia DB JSON. ``encoding`` is one of :data:`ENCODINGS` (``auto`` detects it)."""
    data, file = read_source(source)
    result = ImportResult()
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = getattr(exc, "lineno", 0)
        result.problem(file, line, f"not valid Open Trivia DB JSON: {exc}", "error")
        return result
    if isinstance(doc, dict) and doc.get("response_code") not in (None, 0):
        result.problem(file, 0, f"the API reported response_code {doc.get('response_code')}: no questions", "error")
    results = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(results, list):
        result.problem(file, 0, "expected an object with a 'results' list", "error")
        return result
    if encoding not in ENCODINGS:
        result.problem(file, 0, f"unknown encoding {encoding!r}; use one of {', '.join(ENCODINGS)}", "error")
        return result
    if encoding == "auto":
        encoding = detect_encoding(results)
    decode = _decoder(encoding)
    width = max(4, len(str(len(results))))
    for n, item in enumerate(results):
        where = f"results[{n}]"
        try:
            q = _question(item, decode, language, f"{prefix}-{n + 1:0{width}d}")
        except (KeyError, TypeError, ValueError, binascii.Error) as exc:
            result.problem(file, 0, f"skipped: {exc}", "error", where)
            continue
        if isinstance(q, str):
            result.problem(file, 0, f"skipped: {q}", "unsupported", where)
            continue
        result.questions.append(q.with_origin(file, 0))
    return result


def _question(item: Any, decode: Any, language: str, qid: str) -> Question | str:
    if not isinstance(item, dict):
        raise TypeError("a result must be an object")
    kind = clean(decode(item["type"]))
    prompt = clean(decode(item["question"]))
    right = clean(decode(item["correct_answer"]))
    wrong = [clean(decode(w)) for w in item.get("incorrect_answers", [])]
    category = clean(decode(item.get("category", "")))
    difficulty = clean(decode(item.get("difficulty", ""))) or None
    if difficulty not in (None, "easy", "medium", "hard"):
        raise ValueError(f"unknown difficulty {difficulty!r}")
    if not prompt:
        raise ValueError("empty question")
    common: dict[str, Any] = {
        "id": qid,
        "prompt": prompt,
        "category": category,
        "language": language,
        "difficulty": difficulty,
    }
    if kind == "boolean":
        if right not in ("True", "False"):
            raise ValueError(f"a boolean question's answer must be True or False, got {right!r}")
        return Question(kind="truefalse", answer=right.lower(), **common)
    if kind == "multiple":
        if not wrong:
            raise ValueError("a multiple-choice question needs incorrect_answers")
        position = stable_position(prompt, len(wrong) + 1)
        options = (*wrong[:position], right, *wrong[position:])
        return Question(kind="choice", options=options, correct=position, **common)
    return f"question type {kind!r} is not supported (only multiple and boolean)"


def _encoder(encoding: str) -> Any:
    if encoding == "html":
        return lambda s: html.escape(s, quote=True).replace("&#x27;", "&#039;")
    if encoding == "url3986":
        return lambda s: urllib.parse.quote(s, safe="-_.~")
    if encoding == "base64":
        return lambda s: base64.b64encode(s.encode("utf-8")).decode("ascii")
    return lambda s: s


def write_opentdb(questions: list[Question], *, encoding: str = "html") -> ExportResult:
    """Open Trivia DB JSON; only ``choice``/``higher`` and ``truefalse`` questions fit the format."""
    if encoding not in ENCODINGS or encoding == "auto":
        raise ValueError(f"unknown encoding {encoding!r}; use html, url3986, base64 or none")
    enc = _encoder(encoding)
    out = ExportResult()
    results = []
    for q in questions:
        if q.kind == "truefalse":
            kind, right, wrong = "boolean", "True" if q.truth else "False", ["False" if q.truth else "True"]
        elif q.options and q.correct is not None:
            kind = "multiple"
            right = q.options[q.correct]
            wrong = [o for i, o in enumerate(q.options) if i != q.correct]
            if q.kind not in ("choice", "higher"):
                out.problem(q, f"a {q.kind} question is written as multiple choice; its typed answer is lost")
        else:
            out.problem(q, f"a {q.kind} question without options cannot be written to Open Trivia DB: skipped")
            continue
        dropped = [name for name in ("accepted", "rejected", "tags", "check", "note") if getattr(q, name)]
        if dropped:
            out.problem(q, "not in the format, left out: " + ", ".join(dropped), "warning")
        results.append(
            {
                "type": enc(kind),
                "difficulty": enc(q.difficulty or "medium"),
                "category": enc(q.category),
                "question": enc(q.prompt),
                "correct_answer": enc(right),
                "incorrect_answers": [enc(w) for w in wrong],
            }
        )
    out.text = json.dumps({"response_code": 0, "results": results}, ensure_ascii=False)
    return out
