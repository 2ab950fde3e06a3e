"""The answer judge: decides whether a typed answer matches the accepted answer, and says why.

The books leave exactness to the players, so every agreement is a house rule (see :data:`JUDGE_OPTIONS`):

* ``typos`` — ``"strict"`` (no typo), ``"normal"`` (one edit per 7 letters, the default) or ``"lenient"``
  (one edit per 5 letters, at least one from 5 letters on). Transposed letters count as one edit.
* ``surname_alone`` — for answers that are a person's name, the surname alone is enough (default ``True``).
* ``number_tolerance`` / ``number_tolerance_pct`` — how far a number may be off (absolute / percent of the
  answer; default 0 = exact). A tolerance printed on the question always applies as well.
* ``articles`` — drop leading articles (en: the/a/an; es: el/la/los/las/un/una/unos/unas/lo) (default ``True``).
* ``number_words`` — "seven" = "7" = "siete" = "seitse" (default ``True``).
* ``accents`` — ``"language"`` (default: Spanish accents are not an error; Estonian õ ä ö ü and Spanish ñ are
  letters, so a difference is a typo), ``"ignore"`` (all diacritics ignored) or ``"strict"`` (every
  diacritic difference is a typo).

>>> judge_answer("Simón BOLÍVAR (the Liberator)", "bolivar", language="es").correct
True
>>> v = judge_answer("CANBERRA", "Canbera")
>>> v.correct, v.method, v.edits
(True, 'typo', 1)
>>> judge_answer("PARIS", "Pariss", typos="strict").correct
False
>>> judge_answer("Pärnu", "Parnu", language="et").reason
'"Parnu" is 1 edit from "Pärnu" (õ, ä, ö, ü are letters of their own); the tolerance for 5 letters is 0'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import OSA

from mindtable.core.errors import InvalidOptions
from mindtable.core.options import Option, validate_options
from mindtable.trivia.model import OPTION_LETTERS, Question, format_number
from mindtable.trivia.text import DISTINCT_LETTERS, Normal, _normalise, parse_number, strip_brackets

TYPO_LEVELS = ("strict", "normal", "lenient")
ACCENT_MODES = ("language", "ignore", "strict")

#: the judge's house rules, ready to be embedded in a game's option schema
JUDGE_OPTIONS: tuple[Option, ...] = (
    Option("typos", str, default="normal", choices=TYPO_LEVELS, help="typo tolerance"),
    Option("surname_alone", bool, default=True, help="a surname alone is enough for a person's name"),
    Option("number_tolerance", float, default=0.0, minimum=0, help="absolute tolerance for numbers"),
    Option("number_tolerance_pct", float, default=0.0, minimum=0, maximum=100, help="relative tolerance (%)"),
    Option("articles", bool, default=True, help="ignore leading articles"),
    Option("number_words", bool, default=True, help="number words equal digits"),
    Option("accents", str, default="language", choices=ACCENT_MODES, help="how diacritics are compared"),
)


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The agreed exactness of answers (defaults are the judge's defaults, see the module docstring)."""

    typos: str = "normal"
    surname_alone: bool = True
    number_tolerance: float = 0.0
    number_tolerance_pct: float = 0.0
    articles: bool = True
    number_words: bool = True
    accents: str = "language"

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None) -> HouseRules:
        """Validated house rules from a mapping; unknown names and bad values raise ``InvalidOptions``."""
        if not options:
            return DEFAULT_RULES
        return _rules(options)

    def budget(self, length: int) -> int:
        """How many edits a typo may cost for an answer of ``length`` letters."""
        if self.typos == "strict":
            return 0
        if self.typos == "lenient":
            return max(1, length // 5) if length >= 5 else 0
        return length // 7


DEFAULT_RULES = HouseRules()


def _rules(options: Mapping[str, Any]) -> HouseRules:
    items = tuple(sorted(options.items()))
    try:
        return _rules_from_items(items)
    except TypeError:  # an unhashable value: validate without the cache (it names the bad option)
        return _rules_from_items.__wrapped__(items)


@lru_cache(maxsize=256)
def _rules_from_items(items: tuple[tuple[str, Any], ...]) -> HouseRules:
    values = validate_options(JUDGE_OPTIONS, dict(items))
    return HouseRules(**{f.name: values[f.name] for f in fields(HouseRules)})


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one answer. ``bool(verdict)`` is ``verdict.correct``.

    ``method`` is one of ``exact``, ``normalised``, ``typo``, ``number``, ``option``, ``truefalse``, ``list``
    (accepted) or ``wrong``, ``rejected``, ``ambiguous``, ``empty`` (rejected). ``matched`` is the accepted
    alternative that matched, ``alternative`` says which kind of alternative it was (``answer``, ``full``,
    ``accepted``, ``surname``, ``explanation``, ``option``, ``item``).
    """

    correct: bool
    reason: str
    method: str
    matched: str | None = None
    alternative: str | None = None
    edits: int = 0
    option: int | None = None
    matched_items: tuple[str, ...] = ()
    missing: int = 0

    def __bool__(self) -> bool:
        return self.correct


# --- compiled answers ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Alt:
    compact: str  # normalised, no spaces
    label: str  # the text shown in reasons
    kind: str  # answer | full | accepted | surname | explanation | option | item
    target: int  # index of the target (answer, option or list item) it belongs to
    digits: str  # the digits in it: a typo never changes a digit


@dataclass(frozen=True, slots=True)
class _Number:
    value: float
    tolerance: float
    tolerance_pct: float
    unit_tokens: frozenset[str]


@dataclass(frozen=True, slots=True)
class _Compiled:
    alts: tuple[_Alt, ...]
    exact: Mapping[str, _Alt]
    correct_targets: frozenset[int]
    target_labels: tuple[str, ...]
    number: _Number | None
    language: str
    rules: HouseRules
    optional_words: frozenset[str]  # printed outside the capitals, first names, their initials
    explanation_words: frozenset[str]  # from bracketed explanations


_BRACKET_TEXT = re.compile(r"^[^\(\[]*|[\)\]][^\(\[]*")
_ALT_SPLIT = re.compile(r"\s+/\s+|\s*[;|\n]\s*")
_DIGITS = re.compile(r"\d+")
_SURNAME_PARTICLES = frozenset(
    ["da", "de", "del", "della", "der", "di", "dos", "du", "la", "le", "van", "von", "y", "ten", "ter", "zu"]
)  # kept with the surname: "da Vinci", "van Gogh"
_FILLERS = frozenset(
    [
        "in",
        "on",
        "at",
        "year",
        "years",
        "the",
        "about",
        "around",
        "circa",
        "approximately",
        "ca",
        "c",
        "en",
        "el",
        "ano",
        "año",
        "anos",
        "años",
        "unos",
        "unas",
        "aprox",
        "aproximadamente",
        "cerca",
        "de",
        "alrededor",
        "aastal",
        "aasta",
        "aastat",
        "umbes",
        "ligikaudu",
        "u",
        "ad",
        "ce",
        "dc",
        "d",
        "pkr",
    ]
)
_UNIT_ALIASES: dict[str, tuple[str, ...]] = {
    "m": ("m", "metre", "metres", "meter", "meters", "metro", "metros", "meetrit", "meetrit", "meeter"),
    "km": ("km", "kilometre", "kilometres", "kilometer", "kilometers", "kilometro", "kilometros", "kilomeetrit"),
    "kg": ("kg", "kilo", "kilos", "kilogram", "kilograms", "kilogramo", "kilogramos", "kilogrammi"),
    "years": ("year", "years", "yr", "yrs", "ano", "anos", "año", "años", "aasta", "aastat"),
    "%": ("percent", "per", "cent", "por", "ciento", "protsenti", "protsent"),
    "c": ("c", "degrees", "degree", "celsius", "grados", "kraadi", "°c"),
}
_LINK_WORDS = {
    "en": frozenset({"the", "a", "an", "of", "and", "in"}),
    "es": frozenset({"el", "la", "los", "las", "de", "del", "y", "en"}),
    "et": frozenset({"ja"}),
}
_ALIAS_INDEX = {alias: key for key, aliases in _UNIT_ALIASES.items() for alias in aliases}


_NOT_LETTERS = re.compile(r"[\W\d_]+")


def _is_capitals_word(word: str) -> bool:
    """At least two letters, all of them capitals (``BOLÍVAR``, ``DA``; not ``D.`` nor ``McCARTNEY``)."""
    letters = _NOT_LETTERS.sub("", word)
    return len(letters) >= 2 and letters.isupper()


def _capitals_part(core: str) -> str | None:
    """The words printed in capitals when the answer mixes capitals and lower case, else ``None``."""
    if core == core.upper():
        return None
    words = [w for w in core.split() if _is_capitals_word(w)]
    return " ".join(words) if words else None


def _surnames(name: str, language: str) -> list[str]:
    words = name.split()
    if len(words) < 2:
        return []
    out: list[str] = []
    # the family name is the last word, with its particles ("da Vinci", "van Beethoven")
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in _SURNAME_PARTICLES:
        start -= 1
    out.append(" ".join(words[start:]))
    out.append(words[-1])
    if language == "es" and len(words) >= 3:
        # Spanish: two surnames; the first one alone, or both ("García Márquez", "García")
        first = 1
        while first < len(words) - 1 and words[first].lower() in _SURNAME_PARTICLES:
            first += 1
        out.append(" ".join(words[first:]))
        out.append(words[first])
    return out


def _unit_tokens(unit: str, language: str, rules: HouseRules) -> frozenset[str]:
    tokens = set(_norm(unit, language, rules).tokens) if unit else set()
    for token in list(tokens):
        key = _ALIAS_INDEX.get(token)
        if key:
            tokens.update(_norm(a, language, rules).compact for a in _UNIT_ALIASES[key])
    return frozenset(tokens)


def _norm(text: str, language: str, rules: HouseRules) -> Normal:
    if rules is DEFAULT_RULES:
        return _normalise(text, language, True, True, True)
    return _normalise(
        text,
        "en" if rules.accents == "ignore" else language,
        rules.articles,
        rules.number_words,
        rules.accents != "strict",
    )


def _number_spec(text: str, language: str, rules: HouseRules) -> tuple[float, str] | None:
    """``(value, unit)`` when the printed answer is a number, possibly followed by a unit of a few words."""
    normal = _norm(strip_brackets(text), language, rules)
    if not normal.tokens or len(normal.tokens) > 3:
        return None
    value = parse_number(normal.tokens[0])
    if value is None:
        return None
    return value, " ".join(normal.tokens[1:])


class _Builder:
    def __init__(self, language: str, rules: HouseRules) -> None:
        self.language = language
        self.rules = rules
        self.alts: list[_Alt] = []
        self.labels: list[str] = []
        self.correct: set[int] = set()
        self.optional_words: set[str] = set()
        self.explanation_words: set[str] = set()

    def target(self, label: str, correct: bool) -> int:
        self.labels.append(label)
        index = len(self.labels) - 1
        if correct:
            self.correct.add(index)
        return index

    def add(self, text: str, kind: str, target: int) -> None:
        compact = _norm(text, self.language, self.rules).compact
        if compact:
            self.alts.append(_Alt(compact, text.strip(), kind, target, "".join(_DIGITS.findall(compact))))

    def add_printed(self, printed: str, target: int, *, person: bool, first_kind: str = "answer") -> None:
        """Alternatives of an answer as printed: capitals part, full text, explanation, surname."""
        for n, raw in enumerate(_ALT_SPLIT.split(printed)):
            raw = raw.strip()
            if not raw:
                continue
            core = strip_brackets(raw)
            kind = first_kind if n == 0 else "accepted"
            capitals = _capitals_part(core)
            if capitals:
                self.add(capitals, kind, target)
                self.add(core, "full", target)
            else:
                self.add(core, kind, target)
            if core != raw:
                self.add(" ".join(re.sub(r"[\(\)\[\]]", " ", raw).split()), "explanation", target)
                self.explanation_words.update(_norm(_BRACKET_TEXT.sub(" ", raw), self.language, self.rules).tokens)
            if capitals or person:
                # words outside the capitals (or a person's first names) may be given or left out, also as initials
                required = set(_norm(capitals, self.language, self.rules).tokens) if capitals else set()
                optional = [t for t in _norm(core, self.language, self.rules).tokens if t not in required]
                if not capitals:
                    optional = optional[:-1]
                self.optional_words.update(optional)
                self.optional_words.update(t[0] for t in optional if t[0].isalpha())
            if person and self.rules.surname_alone:
                for surname in _surnames(core, self.language):
                    self.add(surname, "surname", target)

    def build(self, number: _Number | None = None) -> _Compiled:
        exact: dict[str, _Alt] = {}
        for alt in self.alts:
            previous = exact.get(alt.compact)
            # a text that names a correct target and a wrong one is ambiguous: keep the wrong one (never accept)
            if previous is None or (previous.target in self.correct and alt.target not in self.correct):
                exact[alt.compact] = alt
        return _Compiled(
            tuple(self.alts),
            exact,
            frozenset(self.correct),
            tuple(self.labels),
            number,
            self.language,
            self.rules,
            frozenset(self.optional_words) | _LINK_WORDS.get(self.language, frozenset())
            if self.optional_words
            else frozenset(),
            frozenset(self.explanation_words) | _LINK_WORDS.get(self.language, frozenset())
            if self.explanation_words
            else frozenset(),
        )


@lru_cache(maxsize=8192)
def _compile_text(
    accepted: tuple[str, ...], rejected: tuple[str, ...], language: str, rules: HouseRules, person: bool
) -> _Compiled:
    builder = _Builder(language, rules)
    target = builder.target(strip_brackets(accepted[0]) if accepted else "", True)
    for n, text in enumerate(accepted):
        builder.add_printed(text, target, person=person, first_kind="answer" if n == 0 else "accepted")
    for text in rejected:
        builder.add(strip_brackets(text), "rejected", builder.target(strip_brackets(text), False))
    number = None
    if accepted:
        spec = _number_spec(accepted[0], language, rules)
        if spec is not None:
            number = _Number(spec[0], 0.0, 0.0, _unit_tokens(spec[1], language, rules))
    return builder.build(number)


def answer_keys(printed: str, language: str = "en") -> frozenset[str]:
    """The normalised forms that match ``printed`` exactly (no typo): used to tell which option is the answer."""
    return frozenset(_compile_text((printed,), (), language, DEFAULT_RULES, False).exact)


def _question_key(q: Question) -> tuple[Any, ...]:
    return (
        q.kind,
        q.answer,
        q.accepted,
        q.rejected,
        q.options,
        q.correct,
        q.items,
        q.value,
        q.tolerance,
        q.tolerance_pct,
        q.unit,
        q.person,
        q.prompt if q.kind in ("text", "number") else "",
    )


@lru_cache(maxsize=8192)
def _compile_question(key: tuple[Any, ...], language: str, rules: HouseRules) -> _Compiled:
    kind, answer, accepted, rejected, options, correct, items, value, tolerance, tolerance_pct, unit, person, prompt = (
        key
    )
    builder = _Builder(language, rules)
    number = None
    if kind == "list":
        for item in items:
            builder.add_printed(item, builder.target(strip_brackets(item.split(" / ")[0]), True), person=person)
    elif kind in ("choice", "higher"):
        for i, option in enumerate(options):
            builder.add_printed(option, builder.target(option, i == correct), person=False, first_kind="option")
        if correct is not None:
            for text in accepted:
                builder.add_printed(text, correct, person=person, first_kind="accepted")
    else:
        target = builder.target(strip_brackets(answer), True)
        printed = (answer, *accepted) if answer else accepted
        for n, text in enumerate(printed):
            builder.add_printed(text, target, person=person, first_kind="answer" if n == 0 else "accepted")
        for i, option in enumerate(options):
            if i != correct:
                builder.add(option, "rejected", builder.target(option, False))
        # the question's own words may follow a number ("How many legs …?" — "8 legs")
        prompt_words = frozenset(_norm(prompt, language, rules).tokens) if prompt else frozenset()
        if kind == "number" and value is not None:
            units = _unit_tokens(unit, language, rules) | prompt_words
            number = _Number(float(value), float(tolerance or 0.0), float(tolerance_pct or 0.0), units)
        elif answer:
            spec = _number_spec(answer, language, rules)
            if spec is not None:
                units = _unit_tokens(spec[1], language, rules) | prompt_words
                number = _Number(spec[0], float(tolerance or 0.0), float(tolerance_pct or 0.0), units)
    for text in rejected:
        builder.add(strip_brackets(text), "rejected", builder.target(strip_brackets(text), False))
    return builder.build(number)


# --- matching -----------------------------------------------------------------------------------------------


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
        return Verdict(False, "no answer was given", "empty")
    alt = compiled.exact.get(g)
    if alt is not None:
        if alt.target in compiled.correct_targets:
            exact = given_text.strip().casefold() == alt.label.casefold()
            method = "exact" if exact else "normalised"
            how = "" if exact else " after normalising case, accents, punctuation, spacing, articles and numbers"
            return Verdict(True, f"matches {_describe_alt(alt, compiled)}{how}", method, alt.label, alt.kind)
        shown = given_text.strip()
        what = f'"{shown}" is' if shown.casefold() == alt.label.casefold() else f'"{shown}" is "{alt.label}",'
        return Verdict(False, f"{what} a different answer", "rejected", alt.label)
    if (compiled.optional_words or compiled.explanation_words) and len(given.tokens) > 1:
        alt = _match_with_printed_words(compiled, given.tokens)
        if alt is not None:
            return Verdict(
                True,
                f"matches {_describe_alt(alt, compiled)}; the other words are from the printed answer",
                "normalised",
                alt.label,
                alt.kind,
            )
    if compiled.number is not None:
        verdict = _match_number(compiled, compiled.number, given, given_text)
        if verdict is not None:
            return verdict
    return _match_typo(compiled, g, given_text)


def _match_with_printed_words(compiled: _Compiled, tokens: tuple[str, ...]) -> _Alt | None:
    """The answer given with words of the printed answer around it: optional words (outside the capitals,
    first names, initials) anywhere in the answer part, explanation words only after it. So "Canberra, not
    Sydney" is accepted for "CANBERRA (not Sydney)" but the hedge "Sydney, Canberra" is not."""
    for split in range(len(tokens), 0, -1):
        tail = tokens[split:]
        if tail and not all(t in compiled.explanation_words for t in tail):
            break
        head = [t for t in tokens[:split] if t not in compiled.optional_words]
        if not head or (not tail and len(head) == split):
            continue  # nothing was left out: the exact lookup already failed
        alt = compiled.exact.get("".join(head))
        if alt is not None and alt.target in compiled.correct_targets:
            return alt
    return None


def _match_typo(compiled: _Compiled, g: str, given_text: str) -> Verdict:
    rules = compiled.rules
    best: _Alt | None = None
    best_d = 10**9
    tie = False
    g_digits = "".join(_DIGITS.findall(g))
    for alt in compiled.alts:
        if alt.target not in compiled.correct_targets:
            continue
        budget = rules.budget(len(alt.compact))
        if budget == 0 or alt.digits != g_digits:
            continue
        d = OSA.distance(g, alt.compact, score_cutoff=budget)
        if d <= budget and (d < best_d or (d == best_d and best is not None and alt.target != best.target)):
            tie = d == best_d and best is not None and alt.target != best.target
            best, best_d = alt, d
    given_shown = given_text.strip()
    if best is None:
        closest = _closest(compiled, g)
        if closest is None:
            return Verdict(False, f'"{given_shown}" does not match the answer', "wrong")
        alt, d = closest
        budget = rules.budget(len(alt.compact))
        note = _distinct_letter_note(g, alt, compiled)
        if alt.digits != g_digits and d <= max(budget, 1):
            why = "a typo never changes a number"
        else:
            why = f"the tolerance for {len(alt.compact)} letters is {budget}"
        plural = "edit" if d == 1 else "edits"
        return Verdict(False, f'"{given_shown}" is {d} {plural} from "{alt.label}"{note}; {why}', "wrong", edits=d)
    if tie:
        return Verdict(False, f'"{given_shown}" is as close to two different answers', "ambiguous", edits=best_d)
    # never turn one answer into another: a known wrong answer at least as close wins
    for alt in compiled.alts:
        if alt.target in compiled.correct_targets:
            continue
        if OSA.distance(g, alt.compact, score_cutoff=best_d) <= best_d:
            return Verdict(
                False,
                f'"{given_shown}" is at least as close to "{alt.label}", a different answer',
                "rejected",
                alt.label,
                edits=best_d,
            )
    note = _distinct_letter_note(g, best, compiled)
    plural = "edit" if best_d == 1 else "edits"
    return Verdict(
        True,
        f"typo tolerated: {best_d} {plural} from {_describe_alt(best, compiled)}{note}",
        "typo",
        best.label,
        best.kind,
        edits=best_d,
    )


def _closest(compiled: _Compiled, g: str) -> tuple[_Alt, int] | None:
    best: tuple[_Alt, int] | None = None
    for alt in compiled.alts:
        if alt.target not in compiled.correct_targets:
            continue
        d = OSA.distance(g, alt.compact, score_cutoff=3)
        if d <= 3 and (best is None or d < best[1]):
            best = (alt, d)
    return best


def _match_number(compiled: _Compiled, spec: _Number, given: Normal, given_text: str) -> Verdict | None:
    numbers = [(i, parse_number(t)) for i, t in enumerate(given.tokens)]
    found = [(i, v) for i, v in numbers if v is not None]
    if len(found) != 1:
        return None
    index, value = found[0]
    assert value is not None
    rest = [t for i, t in enumerate(given.tokens) if i != index]
    unknown = [t for t in rest if t not in spec.unit_tokens and t not in _FILLERS]
    rules = compiled.rules
    tolerance = max(
        spec.tolerance,
        rules.number_tolerance,
        abs(spec.value) * rules.number_tolerance_pct / 100.0,
        abs(spec.value) * spec.tolerance_pct / 100.0,
    )
    off = abs(value - spec.value)
    shown = format_number(spec.value)
    if unknown:
        return Verdict(
            False,
            f'the number {format_number(value)} is followed by "{" ".join(unknown)}", which is not the unit',
            "wrong",
            shown,
        )
    if off <= 1e-9 * max(1.0, abs(spec.value)):
        unit_note = " (unit ignored)" if spec.unit_tokens and not rest else ""
        return Verdict(True, f"the number {shown} is exact{unit_note}", "number", shown, "answer")
    if off <= tolerance + 1e-9 * max(1.0, abs(spec.value)):
        return Verdict(
            True,
            f"{format_number(value)} is within the tolerance ±{format_number(tolerance)} of {shown}",
            "number",
            shown,
            "answer",
        )
    tol = f"±{format_number(tolerance)}" if tolerance else "none: the number must be exact"
    return Verdict(
        False, f"{format_number(value)} is off by {format_number(off)} from {shown} (tolerance {tol})", "wrong", shown
    )


# --- entry points -------------------------------------------------------------------------------------------

_TRUE_WORDS = frozenset(
    [
        "true",
        "t",
        "yes",
        "y",
        "verdadero",
        "verdadera",
        "v",
        "si",
        "cierto",
        "cierta",
        "verdad",
        "real",
        "tosi",
        "tõsi",
        "jah",
        "oige",
        "õige",
        "tõene",
        "toene",
    ]
)
_FALSE_WORDS = frozenset(["false", "f", "no", "n", "falso", "falsa", "fake", "mentira", "vale", "ei", "valesti"])
_LIST_SPLIT = re.compile(r"\s*(?:[,;\n]|\s(?:and|y|e|ja|&)\s)\s*", re.IGNORECASE)
_LETTER = re.compile(r"^\s*\(?([a-zA-Z])\s*[).:]?\s*$")


def _option_letter(given: str, count: int) -> int | None:
    match = _LETTER.match(given)
    if not match:
        return None
    index = OPTION_LETTERS.find(match.group(1).lower())
    return index if 0 <= index < count else None


def _judge_truefalse(question: Question, given: str, language: str, rules: HouseRules) -> Verdict:
    word = _norm(given, language, rules).compact
    if word in _TRUE_WORDS:
        said = True
    elif word in _FALSE_WORDS:
        said = False
    else:
        return Verdict(False, f'"{given.strip()}" is neither true nor false', "wrong")
    truth = question.truth
    name = "true" if truth else "false"
    if said == truth:
        return Verdict(True, f"the statement is {name}", "truefalse", name)
    return Verdict(False, f"the statement is {name}", "wrong", name)


def _judge_list(question: Question, given: str | Sequence[str], compiled: _Compiled) -> Verdict:
    entries = _LIST_SPLIT.split(given) if isinstance(given, str) else [str(g) for g in given]
    found: dict[int, str] = {}
    notes: list[str] = []
    for entry in entries:
        if not entry.strip():
            continue
        verdict = _match(compiled, _norm(entry, compiled.language, compiled.rules), entry)
        if not verdict.correct:
            notes.append(f'"{entry.strip()}": {verdict.reason}')
            continue
        target = next(
            (a.target for a in compiled.alts if a.label == verdict.matched and a.target in compiled.correct_targets),
            None,
        )
        if target is None:
            continue
        if target in found:
            notes.append(f'"{entry.strip()}" repeats "{compiled.target_labels[target]}"')
        else:
            found[target] = entry.strip()
    needed = question.count or len(question.items)
    matched = tuple(compiled.target_labels[t] for t in sorted(found))
    missing = max(0, needed - len(found))
    summary = f"{len(found)} of {needed} items named"
    if matched:
        summary += ": " + ", ".join(matched)
    if notes:
        summary += "; " + "; ".join(notes)
    return Verdict(missing == 0, summary, "list" if missing == 0 else "wrong", matched_items=matched, missing=missing)


def _judge_question(question: Question, given: Any, language: str, rules: HouseRules) -> Verdict:
    if question.kind == "truefalse":
        if isinstance(given, bool):
            given = "true" if given else "false"
        return _judge_truefalse(question, str(given), language, rules)
    compiled = _compile_question(_question_key(question), language, rules)
    if question.kind == "list":
        return _judge_list(question, given, compiled)
    text = str(given)
    if question.options and question.correct is not None:
        index = (
            given
            if isinstance(given, int) and not isinstance(given, bool)
            else _option_letter(text, len(question.options))
        )
        if index is not None:
            letter = OPTION_LETTERS[index] if 0 <= index < len(question.options) else "?"
            if index == question.correct:
                return Verdict(
                    True,
                    f"option {letter}) is the correct option",
                    "option",
                    question.options[index],
                    "option",
                    option=index,
                )
            shown = question.options[index] if 0 <= index < len(question.options) else "no such option"
            right = OPTION_LETTERS[question.correct]
            return Verdict(False, f"option {letter}) {shown} is wrong; the answer is {right})", "wrong", option=index)
    verdict = _match(compiled, _norm(strip_brackets(text), language, rules), text)
    if verdict.correct and question.kind in ("choice", "higher") and question.correct is not None:
        return Verdict(
            verdict.correct,
            verdict.reason,
            verdict.method,
            verdict.matched,
            verdict.alternative,
            verdict.edits,
            option=question.correct,
        )
    return verdict


def judge_answer(
    accepted: str | Sequence[str] | Question,
    given: Any,
    language: str | None = None,
    *,
    person: bool = False,
    rejected: Sequence[str] = (),
    **house_rules: Any,
) -> Verdict:
    """Judge the answer ``given`` against ``accepted``.

    ``accepted`` is the answer as printed (capitals part, bracketed explanation, alternatives separated by
    `` / `` or ``;``), a sequence of alternatives, or a :class:`Question` (options, true/false, lists and
    numbers are then judged by kind; the question's language is the default). ``person`` marks a person's
    name (for ``surname_alone``) and ``rejected`` lists known wrong answers a typo must never turn into.
    ``house_rules`` are the options in :data:`JUDGE_OPTIONS`; unknown ones raise ``InvalidOptions``.
    """
    rules = _rules(house_rules) if house_rules else DEFAULT_RULES
    if isinstance(accepted, Question):
        return _judge_question(accepted, given, language or accepted.language, rules)
    language = language or "en"
    if isinstance(accepted, str):
        alternatives: tuple[str, ...] = (accepted,)
    elif isinstance(accepted, Sequence):
        alternatives = tuple(str(a) for a in accepted)
    else:
        raise InvalidOptions(f"accepted must be a text, a list of texts or a Question, not {type(accepted).__name__}")
    compiled = _compile_text(alternatives, tuple(rejected), language, rules, person)
    text = given if isinstance(given, str) else str(given)
    return _match(compiled, _norm(strip_brackets(text), language, rules), text)


class Judge:
    """A judge bound to a language and house rules, for callers that judge many answers.

    >>> Judge("es").judge("Ciudad de MÉXICO", "mexico").correct
    True
    """

    def __init__(self, language: str = "en", **house_rules: Any) -> None:
        self.language = language
        self.rules = HouseRules.from_options(house_rules)

    def judge(self, accepted: str | Sequence[str] | Question, given: Any, **kwargs: Any) -> Verdict:
        if isinstance(accepted, Question):
            return _judge_question(accepted, given, accepted.language or self.language, self.rules)
        alternatives = (accepted,) if isinstance(accepted, str) else tuple(accepted)
        compiled = _compile_text(
            alternatives, tuple(kwargs.get("rejected", ())), self.language, self.rules, bool(kwargs.get("person"))
        )
        text = given if isinstance(given, str) else str(given)
        return _match(compiled, _norm(strip_brackets(text), self.language, self.rules), text)
