"""What every importer and exporter returns, and small shared helpers."""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from mindtable.trivia.bank import Problem
from mindtable.trivia.model import Question


@dataclass(slots=True)
class ImportResult:
    """Questions read from a third-party file, and every problem: unsupported parts are reported here."""

    questions: list[Question] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def problem(self, file: str, line: int, message: str, severity: str = "unsupported", where: str = "") -> None:
        self.problems.append(Problem(file, line, where, message, severity))


@dataclass(slots=True)
class ExportResult:
    """The text written and every question (or part of one) that the format cannot hold."""

    text: str = ""
    problems: list[Problem] = field(default_factory=list)

    def problem(self, q: Question, message: str, severity: str = "unsupported") -> None:
        self.problems.append(Problem(str(q.origin) or q.id, 0, f"question {q.id!r}", message, severity))


Source = str | bytes | os.PathLike[str]


def read_source(source: Source) -> tuple[bytes, str]:
    """``(bytes, file name)`` of a path, or of text/bytes given directly (file name ``<text>``)."""
    if isinstance(source, bytes):
        return source, "<text>"
    if isinstance(source, str) and ("\n" in source or "{" in source) and not Path(source).exists():
        return source.encode("utf-8"), "<text>"
    path = Path(source)
    return path.read_bytes(), str(path)


def clean(text: str) -> str:
    """Trim, collapse runs of spaces and drop invisible characters (soft hyphen, LRM/RLM, zero-width space)."""
    text = text.replace("\u00ad", "").replace("\u200e", "").replace("\u200f", "").replace("\u200b", "")
    return " ".join(text.split())


def literal_answer(text: str) -> str:
    """One answer as a bank prints it, without the separators that would make it several alternatives:
    ``" / "`` and ``"|"`` become ``"/"`` and ``";"`` a comma, so "Sweden / Finland" stays one answer (the
    judge then never accepts "Sweden" alone)."""
    text = text.replace(" / ", "/").replace("|", "/").replace(";", ",")
    return " ".join(text.split())


def stable_position(text: str, n: int) -> int:
    """A position in ``range(n)`` that depends only on ``text`` (where the right option goes)."""
    return zlib.crc32(text.encode("utf-8")) % n if n > 0 else 0
