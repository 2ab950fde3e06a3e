"""Importers and exporters for third-party question formats.

Each format has a reader returning an :class:`ImportResult` (questions and reported problems: unsupported parts
are reported, never silently dropped) and a writer returning an :class:`ExportResult`.

>>> sorted(FORMATS)
['csv', 'gift', 'mintaka', 'opentdb', 'opentriviaqa', 'yaml']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mindtable.trivia.bank import Problem, dump_bank, parse_bank_text
from mindtable.trivia.formats.common import ExportResult, ImportResult, Source, read_source
from mindtable.trivia.formats.csvrows import read_csv, write_csv
from mindtable.trivia.formats.gift import read_gift, write_gift
from mindtable.trivia.formats.mintaka import read_mintaka, write_mintaka
from mindtable.trivia.formats.opentdb import read_opentdb, write_opentdb
from mindtable.trivia.formats.opentriviaqa import read_opentriviaqa, write_opentriviaqa
from mindtable.trivia.model import Question


def read_yaml(source: Source, **_: Any) -> ImportResult:
    """A mindtable bank file, as an importer (problems instead of an exception)."""
    data, file = read_source(source)
    bank, problems = parse_bank_text(data.decode("utf-8", errors="replace"), file)
    return ImportResult(bank.questions if bank else [], problems)


def write_yaml(questions: list[Question], **options: Any) -> ExportResult:
    return ExportResult(dump_bank(questions, title=options.get("title", "")), [])


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    description: str
    reader: Callable[..., ImportResult]
    writer: Callable[..., ExportResult]
    suffix: str
    reader_options: tuple[str, ...] = ()
    writer_options: tuple[str, ...] = ()


FORMATS: dict[str, Format] = {
    "yaml": Format("yaml", "mindtable bank file", read_yaml, write_yaml, ".yaml", (), ("title",)),
    "opentdb": Format(
        "opentdb",
        "Open Trivia DB JSON",
        read_opentdb,
        write_opentdb,
        ".json",
        ("encoding", "language", "prefix"),
        ("encoding",),
    ),
    "opentriviaqa": Format(
        "opentriviaqa",
        "OpenTriviaQA text",
        read_opentriviaqa,
        write_opentriviaqa,
        ".txt",
        ("category", "language", "prefix"),
    ),
    "gift": Format("gift", "Moodle GIFT", read_gift, write_gift, ".gift", ("language", "category")),
    "mintaka": Format("mintaka", "Mintaka JSON", read_mintaka, write_mintaka, ".json", ("language",)),
    "csv": Format("csv", "CSV / spreadsheet rows", read_csv, write_csv, ".csv", ("language", "category")),
}


def detect_format(path: str | Path) -> str | None:
    """Guess a file's format from its name and first bytes."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix == ".gift" or p.name.endswith(".gift.txt"):
        return "gift"
    head = p.read_bytes()[:65536].decode("utf-8", errors="replace")
    stripped = head.lstrip("\ufeff \r\n\t")
    if suffix == ".json" or stripped[:1] in "[{":
        if '"results"' in head:
            return "opentdb"
        if '"translations"' in head or '"complexityType"' in head:
            return "mintaka"
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            return None
        return "opentdb" if isinstance(doc, dict) else "mintaka" if isinstance(doc, list) else None
    if stripped.startswith("#Q") or "\n#Q " in head:
        return "opentriviaqa"
    if "{" in head and "}" in head:
        return "gift"
    return None


def import_questions(source: str | Path, fmt: str | None = None, **options: Any) -> ImportResult:
    """Read ``source`` in ``fmt`` (guessed when ``None``); unknown options for the format are an error."""
    name = fmt or detect_format(source)
    if name is None:
        return ImportResult([], [Problem(str(source), 0, "", "cannot tell the format; give it explicitly")])
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r}; known formats: {', '.join(FORMATS)}")
    f = FORMATS[name]
    unknown = [k for k in options if k not in f.reader_options]
    if unknown:
        raise ValueError(
            f"the {name} importer has no option {unknown[0]!r}; options: {', '.join(f.reader_options) or 'none'}"
        )
    return f.reader(source, **options)


def export_questions(questions: list[Question], fmt: str, **options: Any) -> ExportResult:
    """Write ``questions`` in ``fmt``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; known formats: {', '.join(FORMATS)}")
    f = FORMATS[fmt]
    unknown = [k for k in options if k not in f.writer_options]
    if unknown:
        raise ValueError(
            f"the {fmt} exporter has no option {unknown[0]!r}; options: {', '.join(f.writer_options) or 'none'}"
        )
    return f.writer(questions, **options)


__all__ = [
    "FORMATS",
    "ExportResult",
    "Format",
    "ImportResult",
    "detect_format",
    "export_questions",
    "import_questions",
    "read_csv",
    "read_gift",
    "read_mintaka",
    "read_opentdb",
    "read_opentriviaqa",
    "write_csv",
    "write_gift",
    "write_mintaka",
    "write_opentdb",
    "write_opentriviaqa",
]
