"""OpenTriviaQA text: blocks of ``#Q question`` (maybe continued on more lines), ``^ right answer`` and option
lines ``A text`` … Blocks whose options are True/False become ``truefalse`` questions, the rest ``choice``.

Files may mix LF and CRLF and may contain Windows-1252 bytes that are not UTF-8: such lines are decoded as
Windows-1252 and reported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mindtable.trivia.formats.common import ExportResult, ImportResult, Source, read_source
from mindtable.trivia.model import OPTION_LETTERS, Question

_TRUE_FALSE = {"true", "false"}


def _decode_lines(data: bytes, file: str, result: ImportResult) -> list[str]:
    lines = []
    for n, raw in enumerate(data.split(b"\n"), start=1):
        raw = raw.rstrip(b"\r")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            line = raw.decode("cp1252", errors="replace")
            result.problem(file, n, "not valid UTF-8: decoded as Windows-1252", "warning")
        lines.append(line.lstrip("\ufeff") if n == 1 else line)
    return lines


def read_opentriviaqa(
    source: Source, *, category: str | None = None, language: str = "en", prefix: str | None = None
) -> ImportResult:
    """Read an OpenTriviaQA category file; ``category`` defaults to the file name."""
    data, file = read_source(source)
    result = ImportResult()
    stem = Path(file).name if file != "<text>" else "opentriviaqa"
    category = stem if category is None else category
    prefix = prefix or stem
    lines = _decode_lines(data, file, result)
    block: list[tuple[int, str]] = []
    blocks: list[list[tuple[int, str]]] = []
    for n, line in enumerate(lines, start=1):
        if line.startswith("#Q"):
            if block:
                blocks.append(block)
            block = [(n, line)]
        elif not line.strip():
            continue
        elif block:
            block.append((n, line))
        else:
            result.problem(file, n, f"text outside a question block ignored: {line.strip()[:40]!r}", "warning")
    if block:
        blocks.append(block)
    for index, lines_of_block in enumerate(blocks, start=1):
        q = _block(lines_of_block, file, result, category, language, f"{prefix}-{index:04d}")
        if q is not None:
            result.questions.append(q)
    return result


def _block(
    block: list[tuple[int, str]], file: str, result: ImportResult, category: str, language: str, qid: str
) -> Question | None:
    start = block[0][0]
    prompt_lines = [block[0][1][2:].strip()]
    answer: str | None = None
    options: list[str] = []
    for n, line in block[1:]:
        text = line.rstrip()
        if answer is None:
            if text.startswith("^"):
                answer = text[1:].strip()
            else:
                prompt_lines.append(text.strip())
            continue
        letter, _, option = text.partition(" ")
        if len(letter) == 1 and letter.isalpha() and letter.isupper():
            options.append(option.strip())
        else:
            result.problem(file, n, f"line after the options ignored: {text.strip()[:40]!r}", "warning")
    prompt = "\n".join(p for p in prompt_lines if p)
    if answer is None:
        result.problem(file, start, "no '^' answer line: question skipped", "error")
        return None
    if not prompt:
        result.problem(file, start, "empty question: skipped", "error")
        return None
    common: dict[str, Any] = {"id": qid, "prompt": prompt, "category": category, "language": language}
    if len(options) == 2 and {o.lower() for o in options} == _TRUE_FALSE and answer.lower() in _TRUE_FALSE:
        return Question(kind="truefalse", answer=answer.lower(), **common).with_origin(file, start)
    matches = [i for i, o in enumerate(options) if o == answer]
    if not matches:
        matches = [i for i, o in enumerate(options) if o.casefold() == answer.casefold()]
    if len(options) < 2 or len(matches) != 1:
        if options:
            why = "the '^' answer is not one of the options" if not matches else "the answer matches several options"
            result.problem(file, start, f"{why}: imported as a free-text question without options", "warning")
        return Question(kind="text", answer=answer, **common).with_origin(file, start)
    return Question(kind="choice", options=tuple(options), correct=matches[0], **common).with_origin(file, start)


def write_opentriviaqa(questions: list[Question]) -> ExportResult:
    """OpenTriviaQA text; ``text`` questions are written with their printed answer and no options."""
    out = ExportResult()
    blocks = []
    for q in questions:
        lines = ["#Q " + q.prompt]
        if q.kind == "truefalse":
            lines += ["^ " + ("True" if q.truth else "False"), "A True", "B False"]
        elif q.options and q.correct is not None:
            lines.append("^ " + q.options[q.correct])
            if len(q.options) > len(OPTION_LETTERS):
                out.problem(q, "too many options: skipped")
                continue
            lines += [f"{OPTION_LETTERS[i].upper()} {o}" for i, o in enumerate(q.options)]
        elif q.kind in ("text", "number") and (q.answer or q.value is not None):
            lines.append("^ " + (q.answer or q.display_answer))
            if q.kind == "number" or q.accepted:
                out.problem(q, "only the printed answer is written (no tolerance, no alternatives)", "warning")
        else:
            out.problem(q, f"a {q.kind} question cannot be written to OpenTriviaQA: skipped")
            continue
        blocks.append("\n".join(lines))
    out.text = "\n" + "\n\n".join(blocks) + "\n"
    return out
