"""Matching a given text: exact and normalised look-ups, printed words around the answer, word forms and
typos (optimal-string-alignment distance within the budget; identities and direction words never change)."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import OSA

from mindtable.trivia.judge.compiling import (
    _Alt,
    _class_kinds,
    _Compiled,
    _contrast,
    _identity,
    _is_number_token,
    _norm,
    _spelt_alike,
)
from mindtable.trivia.judge.numbers import _match_date, _match_number
from mindtable.trivia.judge.verdict import DEFAULT_RULES, Verdict, _verdict
from mindtable.trivia.judge.words import (
    _ADDED_TITLES,
    _ET_CASES,
    _ET_ENDINGS,
    _IDENTITY_WORDS,
    _NAME_SUFFIXES,
    CLASS_WORDS,
    CONTRAST_WORDS,
    ET_CLASS_STEMS,
    KEYBOARD_LETTERS,
    KNOWN_NAMES,
    OTHER_PERSONS,
)
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
    if alt.kind == "other_language":
        return f'"{alt.label}", the name in another language'
    return f'"{alt.label}"'


_KIND_CODES = {
    "surname": "surname",
    "full": "full_answer",
    "explanation": "explanation",
    "accepted": "alternative",
    "other_language": "other_language",
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


def _match(compiled: _Compiled, given: Normal, given_text: str, depth: int = 0) -> Verdict:
    """The verdict on ``given``: the printed forms first, then (when they refuse it) what players actually
    type — the letters a keyboard lacks, a class word around the answer, a fuller name, Estonian case endings
    on every word, a sound-alike slip (see :func:`_second_look`)."""
    if compiled.surname_forms and given.compact:
        refused = _surname_not_enough(compiled, given, given_text)
        if refused is not None:
            return refused
    verdict = _match_plain(compiled, given, given_text)
    if verdict.correct or verdict.code not in _SECOND_LOOK:
        return verdict
    return _second_look(compiled, given, given_text, verdict, depth)


def _surname_not_enough(compiled: _Compiled, given: Normal, given_text: str) -> Verdict | None:
    """House rule ``surname_alone`` off: a person's surname alone (in any spelling) is not the answer."""
    g = given.compact
    alt = compiled.exact.get(g)
    if alt is not None and alt.target in compiled.correct_targets:
        return None
    for form in compiled.surname_forms:
        if _spelt_alike(g, form):
            label = compiled.target_labels[min(compiled.correct_targets)] if compiled.correct_targets else ""
            return _verdict(
                False,
                f'"{given_text.strip()}" is only the surname of "{label}"; the whole name is asked for',
                "wrong",
                "surname_not_enough",
                params={"answer": label},
            )
    return None


def _match_plain(compiled: _Compiled, given: Normal, given_text: str) -> Verdict:
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


# --- what players actually type ------------------------------------------------------------------------------

#: the refusals a second look may still turn (nothing that a number, a letter, a sign or a known answer decided)
_SECOND_LOOK = frozenset(["no_match", "too_many_edits"])
#: codes of matches that need no more words than "typed without the letters a keyboard may lack"
_PLAIN_CODES = frozenset(["exact", "normalised", "capitals_part", "full_answer", "alternative"])


def _second_look(compiled: _Compiled, given: Normal, given_text: str, verdict: Verdict, depth: int) -> Verdict:
    rules = compiled.rules
    if compiled.folded is not None:
        folded_given = _fold_normal(given)
        folded = _match(compiled.folded, folded_given, given_text, depth)
        if folded.correct or folded.code == "rejected_answer":
            return _keyboard_verdict(folded, given_text, compiled.language)
    found: Verdict | None = None
    if rules.class_words and depth == 0:
        found = _match_class_words(compiled, given, given_text)
        if found is not None:
            return found
    if compiled.names and len(given.tokens) > 1:
        found = _match_fuller_name(compiled, given, given_text)
        if found is not None:
            return found
    if rules.word_forms and compiled.language == "et" and len(given.tokens) > 1:
        found = _match_word_forms_et(compiled, given, given_text)
        if found is not None:
            return found
    if rules.typos != "strict":
        found = _match_sound_alike(compiled, given, given_text)
        if found is not None:
            return found
    return verdict


def _fold_normal(given: Normal) -> Normal:
    tokens = tuple(t.translate(KEYBOARD_LETTERS) for t in given.tokens)
    return Normal(tokens, " ".join(tokens), "".join(tokens), given.applied)


def _keyboard_verdict(found: Verdict, given_text: str, language: str) -> Verdict:
    letters = "ñ" if language == "es" else "õ, ä, ö, ü"
    shown = given_text.strip()
    if found.correct and found.code in _PLAIN_CODES:
        reason = f'"{shown}" is "{found.matched}" typed without {letters} (a keyboard may lack them)'
        return replace(found, reason=reason, code="keyboard_letters", method="normalised")
    return replace(found, reason=f"{found.reason} (read without {letters}, which a keyboard may lack)")


@lru_cache(maxsize=16)
def _class_word_sets(language: str) -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """The class words of a language as the judge reads them (accents folded as in answers, and also without
    the letters a keyboard lacks): before, before with a linking word, after, the linking words."""
    words = CLASS_WORDS.get(language)
    if not words:
        return frozenset(), frozenset(), frozenset(), frozenset()

    def read(names: frozenset[str]) -> frozenset[str]:
        out = {_norm(name, language, DEFAULT_RULES).compact for name in names}
        return frozenset(out | {w.translate(KEYBOARD_LETTERS) for w in out})

    return read(words["before"]), read(words["before_of"]), read(words["after"]), words["of"]


def _class_word_at_end(token: str, after: frozenset[str], language: str) -> str | None:
    """The class word ``token`` is (in Estonian also its genitive stem with a case ending: "järvel", "jõe"),
    else ``None``."""
    if token in after:
        return token
    if language == "et":
        for word, stem in _et_class_stems():
            if token.startswith(stem) and (len(token) == len(stem) or token[len(stem) :] in _ET_CASES):
                return word
    return None


@lru_cache(maxsize=1)
def _et_class_stems() -> tuple[tuple[str, str], ...]:
    pairs = list(ET_CLASS_STEMS.items())
    pairs += [(w.translate(KEYBOARD_LETTERS), s.translate(KEYBOARD_LETTERS)) for w, s in pairs]
    return tuple(dict.fromkeys(pairs))


def _kind_agrees(compiled: _Compiled, words: list[str]) -> bool:
    """The class words say the kind of thing the question asks for (or the question does not say)."""
    if not compiled.kinds:
        return True
    kinds = _class_kinds(compiled.language)
    for word in words:
        stem = _class_word_at_end(word, _class_word_sets(compiled.language)[2], compiled.language) or word
        named = {i for i, (group, _) in enumerate(kinds) if stem in group or word in group}
        if not named & compiled.kinds:
            return False
    return True


def _match_class_words(compiled: _Compiled, given: Normal, given_text: str) -> Verdict | None:
    """The answer with a word for what it is around it: "the island of Crete", "Mount Etna volcano", "el
    desierto del Sahara", "Saaremaa saar", "Peipsi järvel", glued in Estonian: "tammepuu", "Peipsijärv"."""
    language = compiled.language
    before, before_of, after, link = _class_word_sets(language)
    tokens = list(given.tokens)
    front: list[str] = []
    if len(tokens) > 2 and tokens[0] in before_of and tokens[1] in link:
        front = tokens[:2]
    elif len(tokens) > 1 and tokens[0] in before:
        front = tokens[:2] if len(tokens) > 2 and tokens[1] in link else tokens[:1]
    back: list[str] = []
    if len(tokens) - len(front) > 1 and _class_word_at_end(tokens[-1], after, language):
        back = tokens[-1:]
    rest = tokens[len(front) : len(tokens) - len(back)]
    tries: list[tuple[list[str], list[str]]] = []
    if (front or back) and rest:
        tries.append((rest, [t for t in (*front, *back) if t not in link]))
    elif language == "et" and len(tokens) == 1 and _glued_end(after).search(tokens[0]):
        tries.extend(_glued_class_word(tokens[0], after))
    if not tries:
        return None
    for partial in (tokens[len(front) :], tokens[: len(tokens) - len(back)]):
        known = compiled.exact.get("".join(partial))  # a known wrong answer with a class word ("Etna volcano")
        if known is not None and known.target not in compiled.correct_targets and partial != tokens:
            return _verdict(
                False,
                f'"{given_text.strip()}" is "{known.label}", a different answer',
                "rejected",
                "rejected_answer",
                matched=known.label,
                params={"answer": known.label},
            )
    for rest, words in tries:
        if not _kind_agrees(compiled, words):
            continue  # "Narva River" for the town of Narva: another thing
        inner = _match(compiled, Normal(tuple(rest), " ".join(rest), "".join(rest), given.applied), given_text, 1)
        if not inner.correct and language == "et" and len(rest) == 1:
            inner = _stem_of(compiled, rest[0]) or inner
        if inner.correct:
            said = " ".join(words)
            return _verdict(
                True,
                f'"{given_text.strip()}" is "{inner.matched}" with a word for what it is ("{said}"): {inner.reason}',
                inner.method,
                "class_word",
                matched=inner.matched,
                alternative=inner.alternative,
                edits=inner.edits,
                params={"matched": inner.matched or "", "words": said},
            )
        if inner.code == "rejected_answer":
            return inner
    return None


@lru_cache(maxsize=4)
def _glued_end(after: frozenset[str]) -> re.Pattern[str]:
    """A word that ends in a class word, maybe with a case ending: only those are looked at as compounds."""
    words = "|".join(sorted((re.escape(w) for w in after if len(w) >= 3), key=len, reverse=True))
    endings = "|".join(sorted(_ET_ENDINGS, key=len, reverse=True))
    return re.compile(f"...(?:{words})(?:{endings})?$")


def _glued_class_word(token: str, after: frozenset[str]) -> list[tuple[list[str], list[str]]]:
    """Estonian compounds: a class word glued on ("tammepuu", "kasepuu", "Peipsijärv"), maybe with a case ending."""
    out = []
    for word in after:
        if len(word) < 3:
            continue
        at = token.rfind(word)
        if at < 3:
            continue
        ending = token[at + len(word) :]
        if ending and ending not in _ET_ENDINGS:
            continue
        stem = token[:at]
        out.append(([stem], [word]))
        if stem[-1] in "aeiu":
            out.append(([stem[:-1]], [word]))  # the genitive vowel: tamme-puu
    return out


def _stem_of(compiled: _Compiled, stem: str) -> Verdict | None:
    """An Estonian genitive stem with its last consonant changed (kase- for kask, kuuse- for kuusk)."""
    if len(stem) < 4 or stem[-1] not in "aeiu":
        return None
    for alt in compiled.alts:
        if (
            alt.target in compiled.correct_targets
            and alt.words == 1
            and len(alt.compact) == len(stem)
            and alt.compact.isalpha()
            and alt.compact[:-1] == stem[:-1]
        ):
            return _verdict(
                True,
                f'"{stem}" is the stem of "{alt.label}"',
                "normalised",
                "word_form",
                matched=alt.label,
                alternative=alt.kind,
                params={"matched": alt.label, "ending": stem[-1]},
            )
    return None


def _name_word_matches(given: str, printed: str) -> bool:
    return given == printed or (len(printed) == 1 and len(given) > 1 and given[0] == printed)


def _match_fuller_name(compiled: _Compiled, given: Normal, given_text: str) -> Verdict | None:
    """A person's name given fuller than printed: a second given name, a second surname or a particle the card
    leaves out ("Pablo Ruiz y Picasso" for Pablo PICASSO, "John Fitzgerald Kennedy" for John F. KENNEDY). The
    first printed name must come first and every printed name follow in order; a Spanish second surname joined
    by y/de may follow the last; never a generational suffix (a Jr. is another person)."""
    tokens = given.tokens
    contrast = CONTRAST_WORDS.get(compiled.language, frozenset())
    for printed, target in compiled.names:
        if target not in compiled.correct_targets or len(tokens) < len(printed) or len(printed) < 2:
            continue
        if not _name_word_matches(tokens[0], printed[0]):
            continue
        extras: list[str] = []
        expanded = 0
        j = 1
        i = 1
        while i < len(tokens) and j < len(printed):
            if _name_word_matches(tokens[i], printed[j]):
                expanded += tokens[i] != printed[j]
                j += 1
            else:
                extras.append(tokens[i])
            i += 1
        if j < len(printed):
            continue
        after = list(tokens[i:])
        if after and (compiled.language != "es" or len(after) > 3 or after[0] not in ("y", "de", "del")):
            continue  # only a Spanish second surname joined by y/de follows ("Bolívar y Palacios"; never "Julio
            # César Chávez" for Julio CÉSAR, "Miguel Ángel Asturias" for MIGUEL ÁNGEL: other people)
        extras += after
        if not (extras or expanded) or len(extras) > 6:
            continue
        if any(not t.isalpha() or t in _NAME_SUFFIXES or t in contrast for t in extras):
            continue
        if given.compact in _other_persons(compiled.language):
            continue  # the fuller name is another famous person's ("John Quincy Adams" for John ADAMS)
        label = compiled.target_labels[target]
        more = " ".join(extras) or "the names in full"
        return _verdict(
            True,
            f'"{given_text.strip()}" is "{label}" with more of the name ({more})',
            "normalised",
            "fuller_name",
            matched=label,
            alternative="answer",
            params={"matched": label, "words": more},
        )
    return None


@lru_cache(maxsize=4)
def _other_persons(language: str) -> frozenset[str]:
    return frozenset(_norm(name, language, DEFAULT_RULES).compact for name in OTHER_PERSONS)


def _match_word_forms_et(compiled: _Compiled, given: Normal, given_text: str) -> Verdict | None:
    """Estonian case endings on the words of a multi-word answer ("Tartu Ülikoolis", "Vanas Tallinnas")."""
    tokens = given.tokens
    for alt in compiled.alts:
        if alt.target not in compiled.correct_targets or len(alt.tokens) != len(tokens) or alt.identity:
            continue
        endings = []
        for g, a in zip(tokens, alt.tokens, strict=True):
            if g == a:
                continue
            if len(a) >= 3 and g.startswith(a) and g[len(a) :] in _ET_ENDINGS:
                endings.append(g[len(a) :])
                continue
            break
        else:
            if not endings:
                continue
            g = given.compact
            for other in compiled.alts:  # a known wrong answer that is as close still wins
                if other.target not in compiled.correct_targets and OSA.distance(g, other.compact, score_cutoff=1) <= 1:
                    return None
            ending = ", ".join(f"-{e}" for e in endings)
            return _verdict(
                True,
                f'"{given_text.strip()}" is "{alt.label}" with case endings ({ending}); word forms count as the same '
                "answer",
                "normalised",
                "word_form",
                matched=alt.label,
                alternative=alt.kind,
                params={"matched": alt.label, "ending": ending},
            )
    return None


def _one_swap(a: str, b: str) -> bool:
    """``a`` is ``b`` with two neighbouring letters swapped."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _match_sound_alike(compiled: _Compiled, given: Normal, given_text: str) -> Verdict | None:
    """One slip a player makes without knowing it: a doubled or swapped letter, k/c, y/i, ph/f, x/ks, a silent
    final e ("Olso", "Mozzart", "Kenia", "Berne"), for names (answers printed with a capital) of four letters or
    more; never when the slip makes another known answer (a rejected one, a wrong option, :data:`KNOWN_NAMES`)."""
    g = given.compact
    if len(g) < 4 or not g.isalpha() or g in KNOWN_NAMES:
        return None
    language = compiled.language
    size = len(g)
    found: _Alt | None = None
    g_identity: tuple[str, ...] | None = None
    for alt, length, _budget, _reach in compiled.typo_alts:
        # one slip changes the length by one letter at most ("ph" for "f", "ks" for "x", a doubled letter)
        if length < 4 or abs(length - size) > 1 or not alt.label[:1].isupper():
            continue  # names (printed with a capital): a common word one slip away is often another word (angle)
        if not _slip_of(g, alt.compact, language):
            continue
        if g_identity is None:
            g_identity = _identity(given.tokens, language)
        if alt.identity != g_identity:
            continue
        g_contrast = _contrast(given.tokens, language)
        if g_contrast and not g_contrast <= alt.contrast:
            continue
        if found is not None and found.target != alt.target:
            return None  # as close to two different answers
        found = found or alt
    if found is None:
        return None
    for other in compiled.alts:
        if other.target in compiled.correct_targets:
            continue
        if _slip_of(g, other.compact, language) or OSA.distance(g, other.compact, score_cutoff=1) <= 1:
            return None  # the slip could as well be of a known wrong answer
    return _verdict(
        True,
        f'"{given_text.strip()}" is {_describe_alt(found, compiled)} with one slip a player makes (a doubled or '
        "swapped letter, or a letter that sounds the same)",
        "typo",
        "sound_alike",
        matched=found.label,
        alternative=found.kind,
        edits=1,
        params={"matched": found.label},
    )


def _slip_of(given: str, printed: str, language: str) -> bool:
    """``given`` is ``printed`` with exactly one slip: two neighbouring letters swapped, a letter inside the word
    doubled or written once, a silent final e added or left out, or (in answers of four or five letters) a
    letter that sounds the same: k/c, y/i, ph/f, x/ks. Spanish rr and ll are letters of their own."""
    if _one_swap(given, printed):
        # in a four-letter name only the middle two: swapping an end letter often makes a word ("Bats", "Mail")
        return len(printed) > 4 or (given[0] == printed[0] and given[-1] == printed[-1])
    size = len(given) - len(printed)
    if size == 1:
        longer, shorter = given, printed
    elif size == -1:
        longer, shorter = printed, given
    else:
        longer = shorter = ""
    if longer:
        for i in range(1, len(longer) - 1):  # a letter inside the word, doubled
            if longer[i] == longer[i - 1] and longer[:i] + longer[i + 1 :] == shorter:
                return not (language == "es" and longer[i] in "rl")
        if len(shorter) >= 4 and longer == shorter + "e":
            return True  # a silent final e: Bern/Berne
    if len(printed) > 5:
        return False
    for a, b in (("k", "c"), ("y", "i"), ("f", "ph"), ("ks", "x")):
        for x, y in ((a, b), (b, a)):
            at = printed.find(x)
            while at >= 0:
                if printed[:at] + y + printed[at + len(x) :] == given:
                    return True
                at = printed.find(x, at + 1)
    return False
