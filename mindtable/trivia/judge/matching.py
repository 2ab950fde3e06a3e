"""Matching a given text: exact and normalised look-ups, printed words around the answer, word forms and
typos (optimal-string-alignment distance within the budget; identities and direction words never change)."""

from __future__ import annotations

from typing import Any

from rapidfuzz.distance import OSA

from mindtable.trivia.judge.compiling import _Alt, _Compiled, _contrast, _identity, _is_number_token, _norm
from mindtable.trivia.judge.numbers import _match_date, _match_number
from mindtable.trivia.judge.verdict import Verdict, _verdict
from mindtable.trivia.judge.words import _ADDED_TITLES, _ET_ENDINGS, _IDENTITY_WORDS
from mindtable.trivia.text import DISTINCT_LETTERS, SYMBOLS, Normal


def _describe_alt(alt: _Alt, compiled: _Compiled) -> str:
    if alt.kind == "surname":
        return f'the surname "{alt.label}" of "{compiled.target_labels[alt.target]}"'
    if alt.kind == "full":
        return f'"{alt.label}" (the part in capitals is enough)'
    if alt.kind == "explanation":
        return f'"{alt.label}" (with its explanation)'
    if alt.kind == "accepted":
        return f'the accepted alternative "{alt.label}"'
    return f'"{alt.label}"'


_KIND_CODES = {
    "surname": "surname",
    "full": "full_answer",
    "explanation": "explanation",
    "accepted": "alternative",
}
_STEP_CODES = (("abbreviation", "abbreviation"), ("number_words", "spoken_number"), ("numeral", "numeral"))
_STEP_WORDS = {
    "abbreviation": "an abbreviation",
    "numeral": "a Roman numeral or ordinal",
    "number_words": "a number in words",
    "era": "the era",
}


def _match_code(alt: _Alt, given: Normal, compiled: _Compiled, exact: bool) -> tuple[str, str]:
    """The code of an exact match and the note for the reason."""
    steps = given.applied | alt.applied if not exact else given.applied ^ alt.applied
    for side in (given.applied & steps, steps):  # what the player's answer needed first
        for step, step_code in _STEP_CODES:
            if step in side:
                return step_code, f" ({_STEP_WORDS[step]})"
    code = _KIND_CODES.get(alt.kind)
    if code:
        return code, ""
    if alt.kind == "answer" and alt.label != compiled.target_labels[alt.target]:
        return "capitals_part", ""
    return ("exact" if exact else "normalised"), ""


def _distinct_letter_note(given: str, alt: _Alt, compiled: _Compiled) -> str:
    letters = DISTINCT_LETTERS.get(compiled.language, frozenset())
    if compiled.rules.accents == "language" and letters and (set(given) ^ set(alt.compact)) & letters:
        if compiled.language == "et":
            return " (õ, ä, ö, ü are letters of their own)"
        return " (ñ is a letter of its own)"
    return ""


def _match(compiled: _Compiled, given: Normal, given_text: str) -> Verdict:
    g = given.compact
    if not g:
        return _verdict(False, "no answer was given", "empty", "empty")
    alt = compiled.exact.get(g)
    if alt is not None:
        if alt.target in compiled.correct_targets:
            exact = given_text.strip().casefold() == alt.label.casefold()
            method = "exact" if exact else "normalised"
            code, note = _match_code(alt, given, compiled, exact)
            how = "" if exact else " after normalising case, accents, punctuation, spacing, articles and numbers"
            return _verdict(
                True,
                f"matches {_describe_alt(alt, compiled)}{how}{note}",
                method,
                code,
                matched=alt.label,
                alternative=alt.kind,
                params={"matched": alt.label},
            )
        shown = given_text.strip()
        what = f'"{shown}" is' if shown.casefold() == alt.label.casefold() else f'"{shown}" is "{alt.label}",'
        return _verdict(
            False,
            f"{what} a different answer",
            "rejected",
            "rejected_answer",
            matched=alt.label,
            params={"answer": alt.label},
        )
    head: str | None = None
    if (compiled.optional_words or compiled.explanation_words) and len(given.tokens) > 1:
        alt, head = _match_with_printed_words(compiled, given.tokens)
        if alt is not None:
            return _verdict(
                True,
                f"matches {_describe_alt(alt, compiled)}; the other words are from the printed answer",
                "normalised",
                "printed_words",
                matched=alt.label,
                alternative=alt.kind,
                params={"matched": alt.label},
            )
    if compiled.number is not None:
        verdict = _match_number(compiled, compiled.number, given, given_text)
        if verdict is not None:
            return verdict
    if compiled.date is not None:
        verdict = _match_date(compiled, compiled.date, given, given_text)
        if verdict is not None:
            return verdict
    if compiled.rules.word_forms:
        verdict = _match_word_form(compiled, g, given_text)
        if verdict is not None:
            return verdict
    verdict = _match_typo(compiled, given, g, given_text)
    if not verdict.correct and head and head != g and verdict.code in ("no_match", "too_many_edits"):
        # the answer with the printed words it may leave out ("A. H. Tamsaare"): a typo in what remains
        alt_verdict = _match_typo(compiled, _norm(head, compiled.language, compiled.rules), head, given_text)
        if alt_verdict.correct:
            return alt_verdict
    if not verdict.correct and len(given.tokens) > 1 and given.tokens[0] in _ADDED_TITLES.get(compiled.language, ()):
        # a ruler's title the player added ("Queen Elizabeth II", "el emperador Adriano"): the rest is the answer
        rest = given.tokens[1:]
        titled = _match(compiled, Normal(rest, " ".join(rest), "".join(rest), given.applied), given_text)
        if titled.correct:
            return titled
    return verdict


def _match_with_printed_words(compiled: _Compiled, tokens: tuple[str, ...]) -> tuple[_Alt | None, str | None]:
    """The answer given with words of the printed answer around it: optional words (outside the capitals,
    first names, initials) anywhere in the answer part, explanation words only after it. So "Canberra, not
    Sydney" is accepted for "CANBERRA (not Sydney)" but the hedge "Sydney, Canberra" is not.

    Linear in the answer: the explanation words can only be a tail, and the answer part is never longer than
    the longest alternative. Also returns the answer part without optional words (for a typo check)."""
    n = len(tokens)
    optional = compiled.optional_words
    explanation = compiled.explanation_words
    start = n  # the tail tokens[start:] is all explanation words
    while start > 1 and tokens[start - 1] in explanation:
        start -= 1
    limit = compiled.max_length
    kept: list[str] = []
    length = 0
    splits: list[tuple[int, str, int]] = []  # (split, head, how many head tokens were kept)
    for i in range(n):
        token = tokens[i]
        if token not in optional:
            kept.append(token)
            length += len(token)
            if length > limit:
                break
        if i + 1 >= start:
            splits.append((i + 1, "".join(kept), len(kept)))
    whole = splits[-1][1] if splits and splits[-1][0] == n else None
    for split, head, count in reversed(splits):
        if not head or (split == n and count == split):
            continue  # nothing was left out: the exact lookup already failed
        alt = compiled.exact.get(head)
        if alt is not None and alt.target in compiled.correct_targets:
            return alt, None
    return None, whole


def _word_form_base(compiled: _Compiled, g: str) -> tuple[_Alt, str] | None:
    """An accepted alternative that ``g`` is a plural (en, es) or a case form (et, one-word answers) of."""
    if not g.isalpha():
        return None  # word forms are for words: never for numbers, letters with digits or signs
    language = compiled.language
    candidates: list[tuple[str, str]] = []
    if language in ("en", "es"):
        # the answer given in the plural ("Romans" for "Roman"), never a second s ("Pariss" is not "Paris")
        for ending in ("es", "s"):
            if g.endswith(ending) and len(g) - len(ending) >= 4 and not g.endswith("s" + ending):
                candidates.append((g[: -len(ending)], f"-{ending}"))
        # the answer given in the singular ("Maya" for "Mayas"), not for names in -is/-us/-ss (Paris, Venus)
        if len(g) >= 4 and not g.endswith("s") and not g.endswith(("i", "u")):
            candidates.extend((g + ending, f"-{ending}") for ending in ("s", "es"))
    elif language == "et":
        for size in range(min(5, len(g) - 4), 0, -1):
            if g[-size:] in _ET_ENDINGS:
                candidates.append((g[:-size], f"-{g[-size:]}"))
    for base, ending in candidates:
        if not base or base[-1:].isdigit() or (len(base) < 4 and language != "et"):
            continue
        alt = compiled.exact.get(base)
        if alt is None or alt.target not in compiled.correct_targets or alt.identity:
            continue
        if language == "et" and alt.words != 1:
            continue
        if language != "et" and len(alt.compact) < 4:
            continue
        return alt, ending
    return None


def _match_word_form(compiled: _Compiled, g: str, given_text: str) -> Verdict | None:
    found = _word_form_base(compiled, g)
    if found is None:
        return None
    alt, ending = found
    # a known wrong answer that is as close still wins
    for other in compiled.alts:
        if (
            other.target not in compiled.correct_targets
            and abs(len(other.compact) - len(g)) <= 1
            and OSA.distance(g, other.compact, score_cutoff=1) <= 1
        ):
            return None
    what = "a case ending" if compiled.language == "et" else "a plural"
    return _verdict(
        True,
        f'"{given_text.strip()}" is "{alt.label}" with {what} ({ending}); word forms count as the same answer',
        "normalised",
        "word_form",
        matched=alt.label,
        alternative=alt.kind,
        params={"matched": alt.label, "ending": ending},
    )


def _identity_difference(expected: tuple[str, ...], given: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """The code and parameters for answers that differ in what no typo may change."""
    missing = [t for t in expected if t not in given]
    extra = [t for t in given if t not in expected]
    tokens = missing + extra
    if "bc" in tokens:
        return "era_mismatch", {
            "expected": "BC" if "bc" in expected else "AD",
            "given": "BC" if "bc" in given else "AD",
        }
    params = {"expected": " ".join(missing) or "(nothing)", "given": " ".join(extra) or "(nothing)"}
    if any(_is_number_token(t) or any(c.isdigit() for c in t) for t in tokens):
        return "numeral_mismatch", params
    if any(not SYMBOLS.isdisjoint(t) for t in tokens):
        return "symbol_mismatch", params
    return "letter_mismatch", params


def _match_typo(compiled: _Compiled, given: Normal, g: str, given_text: str) -> Verdict:
    rules = compiled.rules
    language = compiled.language
    best: _Alt | None = None
    best_d = 10**9
    tie = False
    closest: tuple[_Alt, int] | None = None
    blocked: tuple[_Alt, int, str] | None = None  # close, but a number/letter/sign/direction differs
    g_identity: tuple[str, ...] | None = None
    g_contrast = _contrast(given.tokens, language)
    size = len(g)
    for alt, length, budget, reach in compiled.typo_alts:
        if abs(length - size) > reach:
            continue  # a length pre-filter: no distance for answers that cannot be close
        d = OSA.distance(g, alt.compact, score_cutoff=reach)
        if d > reach:
            continue
        if closest is None or d < closest[1]:
            closest = (alt, d)
        if g_identity is None:
            g_identity = _identity(given.tokens, language)
        if alt.identity != g_identity:
            if blocked is None or d < blocked[1]:
                blocked = (alt, d, "identity")
            continue
        if g_contrast and not g_contrast <= alt.contrast:
            if blocked is None or d < blocked[1]:
                blocked = (alt, d, "contrast")
            continue
        if budget == 0 or d > budget:
            continue
        if d < best_d or (d == best_d and best is not None and alt.target != best.target):
            tie = d == best_d and best is not None and alt.target != best.target
            best, best_d = alt, d
    given_shown = given_text.strip()
    if best is None:
        if blocked is not None and (closest is None or blocked[1] <= closest[1]):
            alt, d, why = blocked
            if why == "contrast":
                changed = sorted(g_contrast - alt.contrast)
                return _verdict(
                    False,
                    f'"{given_shown}" names a different place or thing than "{alt.label}" ("{" ".join(changed)}"); '
                    "a typo never changes a direction word",
                    "wrong",
                    "entity_changed",
                    edits=d,
                    params={"expected": alt.label, "word": " ".join(changed)},
                )
            code, params = _identity_difference(alt.identity, g_identity or ())
            return _verdict(
                False,
                f'"{given_shown}" differs from "{alt.label}" in {_IDENTITY_WORDS[code]} '
                f"({params['given']} for {params['expected']}); a typo never changes {_IDENTITY_WORDS[code]}",
                "wrong",
                code,
                edits=d,
                params={"answer": alt.label, **params},
            )
        if closest is None:
            return _verdict(False, f'"{given_shown}" does not match the answer', "wrong", "no_match")
        alt, d = closest
        budget = rules.budget(len(alt.compact))
        note = _distinct_letter_note(g, alt, compiled)
        plural = "edit" if d == 1 else "edits"
        return _verdict(
            False,
            f'"{given_shown}" is {d} {plural} from "{alt.label}"{note}; the tolerance for {len(alt.compact)} '
            f"letters is {budget}",
            "wrong",
            "too_many_edits",
            edits=d,
            params={"answer": alt.label, "edits": d, "letters": len(alt.compact), "tolerance": budget},
        )
    if tie:
        return _verdict(
            False, f'"{given_shown}" is as close to two different answers', "ambiguous", "ambiguous", edits=best_d
        )
    # never turn one answer into another: a known wrong answer at least as close wins
    for alt in compiled.alts:
        if alt.target in compiled.correct_targets or abs(len(alt.compact) - size) > best_d:
            continue
        if OSA.distance(g, alt.compact, score_cutoff=best_d) <= best_d:
            return _verdict(
                False,
                f'"{given_shown}" is at least as close to "{alt.label}", a different answer',
                "rejected",
                "rejected_answer",
                matched=alt.label,
                edits=best_d,
                params={"answer": alt.label, "edits": best_d},
            )
    note = _distinct_letter_note(g, best, compiled)
    plural = "edit" if best_d == 1 else "edits"
    budget = rules.budget(len(best.compact))
    return _verdict(
        True,
        f"typo tolerated: {best_d} {plural} from {_describe_alt(best, compiled)}{note}",
        "typo",
        "typo",
        matched=best.label,
        alternative=best.kind,
        edits=best_d,
        params={"matched": best.label, "edits": best_d, "letters": len(best.compact), "tolerance": budget},
    )
