"""CSV / spreadsheet rows: one question per row, a header row naming the columns.

Columns are the bank fields (``id, kind, question, answer, accept, reject, options, correct, items, count,
value, tolerance, tolerance_pct, unit, person, category, language, difficulty, tags, check, note, extra``);
only ``question`` and ``answer`` (or ``options``/``items``/``value``) are needed. Lists go in one cell,
separated by ``|``. Commas, semicolons and tabs are recognised as delimiters. Unknown columns are reported.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from mindtable.trivia.bank import QUESTION_FIELDS, _Collector, _field_name, question_from_data, question_to_data
from mindtable.trivia.formats.common import ExportResult, ImportResult, Source, read_source
from mindtable.trivia.model import Question

LIST_FIELDS = ("accept", "reject", "options", "items", "tags")
NUMBER_FIELDS = ("value", "tolerance", "tolerance_pct")
SEPARATOR = "|"
_ALIASES = {"prompt": "question", "answers": "accept", "type": "kind", "source": "check", "notes": "note"}


def _convert(name: str, cell: str) -> Any:
    if name in LIST_FIELDS:
        return [part.strip() for part in cell.split(SEPARATOR) if part.strip()]
    if name in NUMBER_FIELDS:
        try:
            return float(cell.replace(",", ".")) if any(c in cell for c in ".,eE") else int(cell)
        except ValueError:
            return cell
    if name == "count":
        try:
            return int(cell)
        except ValueError:
            return cell
    if name == "person":
        return cell.strip().lower() in ("true", "yes", "1", "y", "x")
    if name == "extra":
        try:
            return json.loads(cell)
        except json.JSONDecodeError:
            return cell
    return cell


def read_csv(source: Source, *, language: str = "en", category: str = "") -> ImportResult:
    """Read CSV rows (see the module docstring)."""
    data, file = read_source(source)
    result = ImportResult()
    text = data.decode("utf-8-sig", errors="replace")
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count)  # the header names the columns: count its separators
    reader = csv.reader(io.StringIO(text), csv.excel, delimiter=delimiter)
    header = next(reader, None)
    if not header:
        result.problem(file, 1, "empty file: a header row is needed", "error")
        return result
    names = [_ALIASES.get(h.strip().lower(), h.strip().lower()) for h in header]
    for i, name in enumerate(names):
        if name not in QUESTION_FIELDS:
            result.problem(
                file, 1, f"unknown column {header[i]!r} ignored; known: {', '.join(QUESTION_FIELDS)}", "unsupported"
            )
    defaults = {"language": language, "category": category}
    seen: set[str] = set()
    n = 1
    for n, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        record: dict[str, Any] = {}
        for name, cell in zip(names, row, strict=False):
            if name in QUESTION_FIELDS and cell.strip():
                record[name] = _convert(name, cell.strip())
        if len(row) > len(names):
            result.problem(file, n, f"{len(row) - len(names)} cells beyond the header ignored", "warning")
        record.setdefault("id", f"row-{n}")
        kind = str(record.get("kind", "")).lower()
        answer = record.get("answer")
        if isinstance(answer, str) and answer.lower() in ("true", "false") and kind in ("", "truefalse"):
            record["answer"] = answer.lower() == "true"
        if "value" in record and "kind" not in record and isinstance(record.get("value"), str):
            pass
        c = _Collector(file)
        q = question_from_data(record, (), c, defaults, file, n)
        for path, _, message in c.errors:
            result.problem(file, n, message, "error", _field_name(path))
        if q is None:
            continue
        if q.id in seen:
            result.problem(file, n, f"duplicate id {q.id!r}: row skipped", "error", "id")
            continue
        seen.add(q.id)
        result.questions.append(q)
    return result


def write_csv(questions: list[Question]) -> ExportResult:
    """CSV with a header row and every bank field as a column."""
    out = ExportResult()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(QUESTION_FIELDS)
    for q in questions:
        data = question_to_data(q)
        data.setdefault("kind", q.kind)
        for name in ("language", "category"):
            data[name] = getattr(q, name)
        row = []
        for name in QUESTION_FIELDS:
            value = data.get(name, "")
            if name in LIST_FIELDS and isinstance(value, list):
                if any(SEPARATOR in v for v in value):
                    out.problem(q, f"a {name} entry contains {SEPARATOR!r}, which separates entries", "warning")
                value = f" {SEPARATOR} ".join(value)
            elif name == "extra" and value:
                value = json.dumps(value, ensure_ascii=False)
            elif isinstance(value, bool):
                value = "true" if value else "false"
            row.append("" if value is None else str(value))
        writer.writerow(row)
    out.text = buffer.getvalue()
    return out
