"""Kinds with more than one text: true/false words, option letters and list answers."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mindtable.trivia.judge.compiling import _Compiled, _norm
from mindtable.trivia.judge.matching import _match
from mindtable.trivia.judge.verdict import HouseRules, Verdict, _verdict
from mindtable.trivia.judge.words import _FALSE_WORDS, _ONLY_IN, _TRUE_WORDS
from mindtable.trivia.model import OPTION_LETTERS, Question
from mindtable.trivia.text import strip_brackets

#: number ("1,500 m": a digit before it, exactly three after it); "2,3,5" is three items.
_HARD_SPLIT = re.compile(r"\s*(?:[;\n]|(?<!\d),|,(?!\d{3}(?!\d)))\s*")
#: "and"/"y"/"e"/"ja"/"&" may separate items or belong to one ("Romeo y Julieta"): kept, to join pieces back.
_SOFT_SPLIT = re.compile(r"(\s(?:and|y|e|ja|&)\s)", re.IGNORECASE)
_LETTER = re.compile(r"^\s*\(?([a-zA-Z])\s*[).:]?\s*$")
#: at most this many pieces of a list answer are joined back together to find an item ("Romeo y Julieta")
_JOIN_WINDOW = 4
_MAX_LIST_PIECES = 200


def _option_letter(given: str, count: int) -> int | None:
    match = _LETTER.match(given)
    if not match:
        return None
    index = OPTION_LETTERS.find(match.group(1).lower())
    return index if 0 <= index < count else None


def _judge_truefalse(question: Question, given: str, language: str, rules: HouseRules) -> Verdict:
    word = _norm(given, language, rules).compact
    if _ONLY_IN.get(word, language) != language:
        said = None
    elif word in _TRUE_WORDS:
        said = True
    elif word in _FALSE_WORDS:
        said = False
    else:
        said = None
    if said is None:
        return _verdict(False, f'"{given.strip()}" is neither true nor false', "wrong", "not_truefalse")
    truth = question.truth
    name = "true" if truth else "false"
    if said == truth:
        return _verdict(
            True, f"the statement is {name}", "truefalse", "truefalse", matched=name, params={"truth": name}
        )
    return _verdict(False, f"the statement is {name}", "wrong", "wrong_statement", matched=name, params={"truth": name})


def _list_pieces(given: str) -> tuple[list[str], list[str]]:
    """Split a list answer at commas, semicolons and new lines, and at "and"/"y"/"ja"/"&" (kept as pieces so
    an item that contains the word can be joined back). Returns the pieces (``"\x00"`` marks a hard boundary:
    items never span a comma) and, for each piece, the connector typed after it (``" and "``, or ``""``)."""
    pieces: list[str] = []
    joins: list[str] = []
    for part in _HARD_SPLIT.split(given):
        bits = _SOFT_SPLIT.split(part)
        for k in range(0, len(bits), 2):
            pieces.append(bits[k])
            joins.append(bits[k + 1] if k + 1 < len(bits) else "")
        pieces.append("\x00")
        joins.append("")
        if len(pieces) > _MAX_LIST_PIECES * 2:
            break
    return pieces, joins


def _item_target(compiled: _Compiled, verdict: Verdict) -> int | None:
    return next(
        (a.target for a in compiled.alts if a.label == verdict.matched and a.target in compiled.correct_targets),
        None,
    )


def _judge_list(question: Question, given: str | Sequence[str], compiled: _Compiled) -> Verdict:
    found: dict[int, str] = {}
    notes: list[str] = []

    def judge_entry(entry: str) -> Verdict:
        return _match(compiled, _norm(strip_brackets(entry), compiled.language, compiled.rules), entry)

    entries: list[tuple[str, Verdict]] = []
    if isinstance(given, str):
        pieces, joins = _list_pieces(given)
        i = 0
        limit = min(_MAX_LIST_PIECES, 4 * (question.count or len(question.items)) + 20)
        while i < len(pieces) and len(entries) < limit:
            if pieces[i] == "\x00" or not pieces[i].strip():
                i += 1
                continue
            last = i
            while last + 1 < len(pieces) and pieces[last + 1] != "\x00" and last + 1 - i < _JOIN_WINDOW:
                last += 1
            chosen: tuple[str, Verdict, int] | None = None
            for j in range(last, i, -1):  # the longest run of pieces that is an item ("Romeo y Julieta")
                text = "".join(pieces[k] + joins[k] for k in range(i, j)) + pieces[j]  # as typed
                if len(text) > 2 * compiled.max_length + 16:
                    continue  # longer than any item could be, even with its printed words
                verdict = judge_entry(text)
                if verdict.correct:
                    chosen = (text, verdict, j + 1)
                    break
            if chosen is None:
                chosen = (pieces[i], judge_entry(pieces[i]), i + 1)
            entries.append((chosen[0], chosen[1]))
            i = chosen[2]
    else:
        entries = [(str(g), judge_entry(str(g))) for g in list(given)[:_MAX_LIST_PIECES]]
    wrong: list[str] = []
    for entry, verdict in entries:
        if not entry.strip():
            continue
        if not verdict.correct:
            notes.append(f'"{entry.strip()}": {verdict.reason}')
            wrong.append(entry.strip())
            continue
        target = _item_target(compiled, verdict)
        if target is None:
            continue
        if target in found:
            notes.append(f'"{entry.strip()}" repeats "{compiled.target_labels[target]}"')
        else:
            found[target] = entry.strip()
    needed = question.count or len(question.items)
    matched = tuple(compiled.target_labels[t] for t in sorted(found))
    missing = max(0, needed - len(found))
    if wrong and len(found) + len(wrong) > needed and compiled.rules.list_extras == "wrong":
        # More names than asked for, one of them wrong: a guess spread over extra names (house rule list_extras).
        return _verdict(
            False,
            f"{len(found) + len(wrong)} entries named where {needed} were asked for, and "
            + ", ".join(f'"{w}"' for w in list(dict.fromkeys(wrong))[:5])
            + (" is" if len(set(wrong)) == 1 else " are")
            + " not right",
            "wrong",
            "list_extra_wrong",
            matched_items=matched,
            missing=missing,
            params={"given": len(found) + len(wrong), "needed": needed, "wrong": len(wrong)},
        )
    summary = f"{len(found)} of {needed} items named"
    if matched:
        summary += ": " + ", ".join(matched)
    if notes:
        summary += "; " + "; ".join(notes[:20])
    return _verdict(
        missing == 0,
        summary,
        "list" if missing == 0 else "wrong",
        "list_complete" if missing == 0 else "list_incomplete",
        matched_items=matched,
        missing=missing,
        params={"named": len(found), "needed": needed, "missing": missing},
    )
