"""Moodle GIFT: multiple choice, true/false, short answer and numerical questions (with tolerance or range).

Supported: ``::title::`` (becomes the id when unique), ``$CATEGORY:`` lines, ``//`` comments, escapes
(``\\~ \\= \\# \\{ \\} \\: \\\\ \\n``), missing-word questions (the blank is written ``_____``), ``%0%`` short
answers (kept as known wrong answers) and ``####`` general feedback (kept as the note).
Reported and left out: essay ``{}``, matching ``->``, multiple-answer questions (several partial weights),
partial-credit answers, per-answer feedback, ``*`` catch-all answers, text-format markers other than
``[plain]``/``[moodle]`` (the text is kept as written).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mindtable.trivia.formats.common import ExportResult, ImportResult, Source, read_source
from mindtable.trivia.model import Question, format_number

BLANK = "_____"
_ESCAPES = {"~": "\ue010", "=": "\ue011", "#": "\ue012", "{": "\ue013", "}": "\ue014", ":": "\ue015", "\\": "\ue016"}
_UNESCAPE = {v: k for k, v in _ESCAPES.items()}
_ESCAPE_RE = re.compile(r"\\([~=#{}:\\n])")
_TITLE_RE = re.compile(r"^\s*::(.*?)::", re.DOTALL)
_FORMAT_RE = re.compile(r"^\s*\[(html|moodle|plain|markdown)\]", re.IGNORECASE)
_WEIGHT_RE = re.compile(r"^%(-?\d+(?:\.\d+)?)%")
_NUMBER_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:(:|\.\.)\s*(-?\d+(?:\.\d+)?))?\s*$")


def _protect(text: str) -> str:
    return _ESCAPE_RE.sub(lambda m: "\n" if m.group(1) == "n" else _ESCAPES[m.group(1)], text)


def _restore(text: str) -> str:
    for placeholder, char in _UNESCAPE.items():
        text = text.replace(placeholder, char)
    return text


def _tidy(text: str) -> str:
    return " ".join(_restore(text).split())


@dataclass(slots=True)
class _Answer:
    sign: str
    text: str
    weight: float | None
    feedback: str


def _answers(inside: str) -> list[_Answer]:
    out = []
    for match in re.finditer(r"([=~])([^=~]*)", inside):
        sign, body = match.group(1), match.group(2)
        text, _, feedback = body.partition("#")
        text = text.strip()
        weight = None
        wm = _WEIGHT_RE.match(text)
        if wm:
            weight = float(wm.group(1))
            text = text[wm.end() :].strip()
        fm = _FORMAT_RE.match(text)
        if fm:
            text = text[fm.end() :].strip()
        out.append(_Answer(sign, _tidy(text), weight, feedback.strip()))
    return out


def read_gift(source: Source, *, language: str = "en", category: str = "") -> ImportResult:
    """Read a GIFT file (see the module docstring for what is supported and what is reported)."""
    data, file = read_source(source)
    result = ImportResult()
    text = data.decode("utf-8-sig", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[tuple[int, list[str], str]] = []
    current: list[str] = []
    start = 0
    for n, line in enumerate(_protect(text).split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if stripped.startswith("$CATEGORY:"):
            if current:
                blocks.append((start, current, category))
                current = []
            category = _tidy(stripped[len("$CATEGORY:") :]).strip()
            continue
        if not stripped:
            if current:
                blocks.append((start, current, category))
                current = []
            continue
        if not current:
            start = n
        current.append(line)
    if current:
        blocks.append((start, current, category))
    titles: dict[str, int] = {}
    for _, lines, _ in blocks:
        m = _TITLE_RE.match("\n".join(lines))
        if m:
            title = _tidy(m.group(1))
            titles[title] = titles.get(title, 0) + 1
    used: set[str] = set()
    for index, (start_line, lines, cat) in enumerate(blocks, start=1):
        q = _question("\n".join(lines), start_line, index, file, result, language, cat, titles, used)
        if q is not None:
            used.add(q.id)
            result.questions.append(q)
    return result


def _question(
    block: str,
    line: int,
    index: int,
    file: str,
    result: ImportResult,
    language: str,
    category: str,
    titles: dict[str, int],
    used: set[str],
) -> Question | None:
    title = ""
    m = _TITLE_RE.match(block)
    if m:
        title = _tidy(m.group(1))
        block = block[m.end() :]
    qid = title if title and titles.get(title) == 1 and title not in used else f"gift-{index:03d}"
    where = f"question {title or index!r}"
    notes: list[str] = []

    def report(message: str, severity: str = "unsupported") -> None:
        result.problem(file, line, message, severity, where)

    fm = _FORMAT_RE.match(block)
    if fm:
        fmt = fm.group(1).lower()
        block = block[fm.end() :]
        if fmt in ("html", "markdown"):
            notes.append(f"[{fmt}] text format: the text is kept as written, not rendered")
    open_at = block.find("{")
    close_at = block.find("}", open_at + 1)
    if open_at < 0 or close_at < 0:
        report("no answer block {…}: a description, not a question; skipped")
        return None
    before, inside, after = block[:open_at], block[open_at + 1 : close_at].strip(), block[close_at + 1 :]
    missing_word = any(c.isalnum() for c in after)
    if missing_word:
        prompt = _tidy(before) + " " + BLANK + " " + _tidy(after)
        prompt = prompt.strip()
    else:
        prompt = _tidy(before)
        if after.strip() not in ("", "."):
            notes.append(f"text after the answer block ignored: {_restore(after.strip())!r}")
    common: dict[str, Any] = {"id": qid, "prompt": prompt, "language": language, "category": category}
    if not inside:
        report("essay question {}: not supported; skipped")
        return None
    if "->" in inside:
        report("matching question: not supported; skipped")
        return None
    q: Question | None
    if inside.startswith("#"):
        q = _numeric(inside[1:], common, notes)
    elif re.match(r"^(T|TRUE|F|FALSE)\s*(#|$)", inside, re.IGNORECASE):
        word, _, feedback = inside.partition("#")
        general = ""
        if "####" in inside:
            feedback, _, general = inside.partition("####")
            feedback = feedback.partition("#")[2]
        if feedback.strip():
            notes.append("true/false feedback left out")
        answer = "true" if word.strip().upper().startswith("T") else "false"
        q = Question(kind="truefalse", answer=answer, note=_tidy(general), **common)
    else:
        general = ""
        if "####" in inside:
            inside, _, general = inside.partition("####")
        q = _choice_or_short(_answers(inside), common, notes, _tidy(general))
    for note in notes:
        report(note)
    return q.with_origin(file, line) if q is not None else None


def _numeric(body: str, common: dict[str, Any], notes: list[str]) -> Question | None:
    body = body.strip()
    candidates: list[tuple[float | None, str]] = []
    if body.startswith("="):
        for ans in _answers(body):
            candidates.append((ans.weight, ans.text))
            if ans.feedback:
                notes.append("answer feedback left out")
    else:
        value_part = re.split(r"[~#]", body, maxsplit=1)[0]
        if value_part.strip() != body:
            notes.append("numeric feedback / wrong-answer entries left out")
        candidates.append((None, _restore(value_part)))
    full = [text for weight, text in candidates if weight is None or weight >= 100]
    partial = [(weight, text) for weight, text in candidates if weight is not None and weight < 100]
    for weight, text in partial:
        notes.append(f"partial-credit answer {text!r} ({weight:g}%) left out")
    if not full:
        notes.append("no full-credit numeric answer; skipped")
        return None
    m = _NUMBER_RE.match(full[0].replace("\ue015", ":"))
    if not m:
        notes.append(f"numeric answer {full[0]!r} not understood; skipped")
        return None
    first = float(m.group(1))
    if m.group(2) == "..":
        second = float(m.group(3))
        low, high = min(first, second), max(first, second)
        value, tolerance = round((low + high) / 2, 10), round((high - low) / 2, 10)
    else:
        value, tolerance = first, float(m.group(3)) if m.group(3) else 0.0
    return Question(kind="number", value=value, tolerance=tolerance or None, **common)


def _choice_or_short(answers: list[_Answer], common: dict[str, Any], notes: list[str], general: str) -> Question | None:
    if not answers:
        notes.append("no answers in the block; skipped")
        return None
    if any(a.feedback for a in answers):
        notes.append("per-answer feedback left out")
    if any(a.sign == "~" for a in answers):
        right = [
            i
            for i, a in enumerate(answers)
            if (a.sign == "=" and (a.weight is None or a.weight >= 100))
            or (a.sign == "~" and a.weight is not None and a.weight >= 100)
        ]
        partial = [a for a in answers if a.weight is not None and 0 < a.weight < 100]
        if len(right) != 1:
            notes.append("multiple-answer question (several answers with partial credit): not supported; skipped")
            return None
        for a in partial:
            notes.append(f"partial credit for {a.text!r} ({a.weight:g}%) left out: counted as wrong")
        options = tuple(a.text for a in answers)
        return Question(kind="choice", options=options, correct=right[0], note=general, **common)
    accepted: list[str] = []
    rejected: list[str] = []
    for a in answers:
        if a.text == "*":
            notes.append("catch-all answer '*' left out")
        elif a.weight is None or a.weight >= 100:
            accepted.append(a.text)
        elif a.weight <= 0:
            rejected.append(a.text)
        else:
            notes.append(f"partial-credit answer {a.text!r} ({a.weight:g}%) left out")
    if not accepted:
        notes.append("no full-credit answer; skipped")
        return None
    return Question(
        kind="text", answer=accepted[0], accepted=tuple(accepted[1:]), rejected=tuple(rejected), note=general, **common
    )


def _escape(text: str) -> str:
    return re.sub(r"([~=#{}:\\])", r"\\\1", text).replace("\n", "\\n")


def _answer(sign: str, text: str, out: ExportResult, q: Question) -> str:
    """One answer of a block; a text that would read as a weight or a format marker gets an explicit one."""
    escaped = _escape(text)
    if _FORMAT_RE.match(text):
        escaped = "[plain]" + escaped
    if _WEIGHT_RE.match(text) or (sign == "=" and text.startswith("%")):
        sign += "%100%" if sign == "=" else "%0%"
    if "->" in text:
        out.problem(q, f"answer {text!r} contains '->', which GIFT reads as a matching pair", "warning")
    return sign + escaped


def write_gift(questions: list[Question]) -> ExportResult:
    """GIFT text. ``list`` questions cannot be written; units and relative tolerances are reported."""
    out = ExportResult()
    blocks: list[str] = []
    category = ""
    for q in questions:
        if q.kind == "list":
            out.problem(q, "a 'name N items' question cannot be written to GIFT: skipped")
            continue
        if q.category != category:
            category = q.category
            blocks.append(f"$CATEGORY: {_escape(category)}")
        if q.kind == "truefalse":
            body = "{TRUE}" if q.truth else "{FALSE}"
        elif q.kind == "number":
            tol = q.tolerance or 0.0
            if q.tolerance_pct:
                tol = max(tol, abs(q.value or 0) * q.tolerance_pct / 100)
                out.problem(q, "relative tolerance written as an absolute one", "warning")
            if q.unit:
                out.problem(q, f"unit {q.unit!r} left out", "warning")
            body = "{#" + format_number(q.value) + (f":{format_number(tol)}" if tol else "") + "}"
        elif q.options and q.correct is not None:
            if q.kind == "text":
                out.problem(q, "a free-text question with options is written as multiple choice", "warning")
            signs = ["=" if i == q.correct else "~" for i in range(len(q.options))]
            body = "{" + " ".join(_answer(sign, o, out, q) for sign, o in zip(signs, q.options, strict=True)) + "}"
        else:
            answers = [q.answer, *q.accepted] if q.answer else list(q.accepted)
            body = "{" + " ".join(_answer("=", a, out, q) for a in answers)
            body += "".join(" =%0%" + ("[plain]" if _FORMAT_RE.match(r) else "") + _escape(r) for r in q.rejected)
            body += "}"
        if q.note:
            body = body[:-1] + " ####" + _escape(q.note) + "}"
        prompt = q.prompt
        if BLANK in prompt:
            head, _, tail = prompt.partition(BLANK)
            text = _escape(head.rstrip()) + " " + body + " " + _escape(tail.lstrip())
        else:
            text = _escape(prompt) + body
        if _FORMAT_RE.match(prompt):
            text = "[plain]" + text
        blocks.append(f"::{_escape(q.id)}::{text.strip()}")
    out.text = "\n\n".join(blocks) + "\n"
    return out
