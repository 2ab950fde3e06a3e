"""Mintaka JSON (Amazon's multilingual complex-question dataset), in a chosen language.

The question text comes from ``translations[language]`` (English is ``question``). Answers by ``answerType``:
``entity`` with one answer → ``text``; several → ``list`` (name them all); ``boolean`` → ``truefalse``;
``numerical`` → ``number``; ``date`` → ``text`` (ISO date, which the judge reads as a date in any language;
the mention accepted too). "How many" questions (``complexityType: count``) are ``number`` questions with
``answerNum`` as the value, whatever the answer type (Mintaka lists the things counted). Items repeated in a
record are named once. A label that contains " / " or "|" stays one answer. Answer labels are English in v1.0
(v1.1 label dictionaries are read in the chosen language when present): in another language the questions say
so in their ``note``, and one warning reports it. The original record
parts that the model has no place for (entities, complexity type, QIDs) are kept in ``extra`` so an export
gives the record back.
"""

from __future__ import annotations

import json
from typing import Any

from mindtable.trivia.formats.common import ExportResult, ImportResult, Source, clean, literal_answer, read_source
from mindtable.trivia.model import Question, format_number


def _label(answer: Any, language: str) -> str:
    label = answer.get("label") if isinstance(answer, dict) else answer
    if isinstance(label, dict):
        label = label.get(language) or label.get("en") or next(iter(label.values()), "")
    return literal_answer(clean(str(label))) if label is not None else ""


ENGLISH_ANSWERS_NOTE = "The answers are Mintaka's English names; accept them in this language too."


def read_mintaka(source: Source, *, language: str = "en") -> ImportResult:
    """Read Mintaka JSON; ``language`` is ``en`` or one of the translation codes (ar, de, es, fr, hi, it, ja, pt)."""
    data, file = read_source(source)
    result = ImportResult()
    try:
        records = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        result.problem(file, getattr(exc, "lineno", 0), f"not valid Mintaka JSON: {exc}", "error")
        return result
    if not isinstance(records, list):
        result.problem(file, 0, "expected a list of Mintaka records", "error")
        return result
    english_labels = 0
    for n, record in enumerate(records):
        where = f"[{n}]"
        if not isinstance(record, dict) or "question" not in record or "answer" not in record:
            result.problem(file, 0, "not a Mintaka record (needs question and answer): skipped", "error", where)
            continue
        qid = str(record.get("id") or f"mintaka-{n + 1:04d}")
        where = f"[{n}] id {qid}"
        prompt = clean(str(record["question"]))
        if language != "en":
            translated = (record.get("translations") or {}).get(language)
            if translated:
                prompt = clean(str(translated))
            else:
                result.problem(file, 0, f"no {language!r} translation: the English question is used", "warning", where)
        answer = record.get("answer") or {}
        extra = {"mintaka": {k: v for k, v in record.items() if k != "id"}}
        common: dict[str, Any] = {
            "id": qid,
            "prompt": prompt,
            "language": language,
            "category": str(record.get("category") or ""),
            "tags": (str(record["complexityType"]),) if record.get("complexityType") else (),
            "extra": extra,
        }
        kind = answer.get("answerType")
        values = answer.get("answer")
        mention = literal_answer(clean(str(answer.get("mention") or "")))
        if values is None:
            if not mention:
                result.problem(file, 0, "no answer and no mention: skipped", "error", where)
                continue
            result.problem(file, 0, "answer is null: the mention is used as the answer", "warning", where)
            result.questions.append(Question(kind="text", answer=mention, **common).with_origin(file, 0))
            continue
        q: Question | None = None
        count = answer.get("answerNum")
        counting = record.get("complexityType") == "count" or str(record["question"]).lower().startswith("how many")
        if counting and kind != "numerical" and isinstance(count, int) and not isinstance(count, bool):
            q = Question(kind="number", value=float(count), **common)
        elif kind == "boolean" and len(values) == 1 and isinstance(values[0], bool):
            q = Question(kind="truefalse", answer="true" if values[0] else "false", **common)
        elif kind == "numerical" and len(values) == 1 and isinstance(values[0], (int, float)):
            q = Question(kind="number", value=float(values[0]), **common)
        elif kind in ("entity", "date", "numerical") and values:
            labels = [_label(v, language) if kind == "entity" else str(v) for v in values]
            labels = [label for label in labels if label]
            unique = list(dict.fromkeys(labels))
            if len(unique) < len(labels):
                result.problem(
                    file, 0, f"{len(labels) - len(unique)} repeated answer item(s) named once", "warning", where
                )
                labels = unique
            if (
                kind == "entity"
                and language != "en"
                and not any(isinstance(v, dict) and isinstance(v.get("label"), dict) for v in values)
            ):
                english_labels += 1
                common["note"] = ENGLISH_ANSWERS_NOTE
            if len(labels) == 1:
                accepted = (mention,) if mention and mention.casefold() != labels[0].casefold() else ()
                q = Question(kind="text", answer=labels[0], accepted=accepted, **common)
            elif labels:
                q = Question(kind="list", items=tuple(labels), count=len(labels), **common)
        if q is None:
            result.problem(
                file, 0, f"answer type {kind!r} with {values!r} not understood: skipped", "unsupported", where
            )
            continue
        result.questions.append(q.with_origin(file, 0))
    if english_labels:
        result.problem(
            file,
            0,
            f"{english_labels} question(s) have English answer names (Mintaka v1.0 translates only the questions); "
            f"their note says so",
            "warning",
        )
    return result


def write_mintaka(questions: list[Question]) -> ExportResult:
    """Mintaka JSON. Questions imported from Mintaka are written back as they were read."""
    out = ExportResult()
    records = []
    for q in questions:
        original = q.extra.get("mintaka") if isinstance(q.extra, dict) else None
        if isinstance(original, dict):
            record: dict[str, Any] = {"id": q.id, **original}
            if q.language != "en":
                record["translations"] = {**(original.get("translations") or {}), q.language: q.prompt}
            else:
                record["question"] = q.prompt
            records.append(record)
            continue
        answer: dict[str, Any]
        if q.kind == "truefalse":
            answer = {"answerType": "boolean", "answer": [bool(q.truth)], "mention": "Yes" if q.truth else "No"}
        elif q.kind == "number" and q.value is not None:
            value: Any = int(q.value) if float(q.value).is_integer() else q.value
            answer = {"answerType": "numerical", "answer": [value], "mention": format_number(q.value)}
        elif q.kind == "list":
            answer = {"answerType": "entity", "answer": [{"name": None, "label": i} for i in q.items], "mention": None}
        elif q.kind in ("choice", "higher") and q.correct is not None:
            label = q.options[q.correct]
            answer = {"answerType": "entity", "answer": [{"name": None, "label": label}], "mention": label}
            out.problem(q, "options left out: only the right one is written", "warning")
        elif q.answer:
            label = q.required_answer
            answer = {"answerType": "entity", "answer": [{"name": None, "label": label}], "mention": label}
        else:
            out.problem(q, f"a {q.kind} question without an answer cannot be written: skipped")
            continue
        record = {
            "id": q.id,
            "question": q.prompt,
            "translations": {},
            "questionEntity": [],
            "answer": answer,
            "category": q.category,
            "complexityType": "generic",
        }
        if q.language != "en":
            record["translations"] = {q.language: q.prompt}
            out.problem(
                q, f"Mintaka's question field is English; the {q.language} text is written there too", "warning"
            )
        records.append(record)
    out.text = json.dumps(records, ensure_ascii=False, indent=4) + "\n"
    return out
