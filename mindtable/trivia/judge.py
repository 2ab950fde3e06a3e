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
* ``word_forms`` — a plural -s/-es more or less (en, es) and a case ending on a one-word answer (et,
  "Tallinnas" for Tallinn) are the same answer (default ``True``).
* ``list_extras`` — a list answer naming more entries than the question asks for, one of them wrong:
  ``"wrong"`` (the default: a guess spread over extra names is no answer, as a quizmaster rules it) or
  ``"ignore"`` (only the items still missing count, as in Caída Libre's Quote 5: "you lose 10 IQ points for each
  element you are missing").

Some things are never a house rule: a typo never changes a number, a Roman numeral, a single letter, an era or
a sign (``Elizabeth I`` is not ``Elizabeth II``, ``Vitamin C`` is not ``Vitamin A``, ``C`` is not ``C++``,
``44 AD`` is not ``44 BC``), and never turns one answer into another (a known wrong answer, or a different
direction word: ``South Korea`` is not ``North Korea``).

Every verdict has a ``reason`` (for people) and a ``code`` naming the rule that decided, with ``params``.

>>> judge_answer("Simón BOLÍVAR (the Liberator)", "bolivar", language="es").correct
True
>>> v = judge_answer("CANBERRA", "Canbera")
>>> v.correct, v.method, v.edits, v.code
(True, 'typo', 1, 'typo')
>>> judge_answer("PARIS", "Pariss", typos="strict").correct
False
>>> judge_answer("Pärnu", "Parnu", language="et").reason
'"Parnu" is 1 edit from "Pärnu" (õ, ä, ö, ü are letters of their own); the tolerance for 5 letters is 0'
>>> judge_answer("Elizabeth II", "Elizabeth I").code
'numeral_mismatch'
>>> judge_answer("Elizabeth II", "Elizabeth the Second").code
'spoken_number'
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
from mindtable.trivia.text import ARTICLES, DISTINCT_LETTERS, SYMBOLS, Normal, _normalise, parse_number, strip_brackets

TYPO_LEVELS = ("strict", "normal", "lenient")
ACCENT_MODES = ("language", "ignore", "strict")
LIST_EXTRAS = ("wrong", "ignore")

#: the judge's house rules, ready to be embedded in a game's option schema
JUDGE_OPTIONS: tuple[Option, ...] = (
    Option("typos", str, default="normal", choices=TYPO_LEVELS, help="typo tolerance"),
    Option("surname_alone", bool, default=True, help="a surname alone is enough for a person's name"),
    Option("number_tolerance", float, default=0.0, minimum=0, help="absolute tolerance for numbers"),
    Option("number_tolerance_pct", float, default=0.0, minimum=0, maximum=100, help="relative tolerance (%)"),
    Option("articles", bool, default=True, help="ignore leading articles"),
    Option("number_words", bool, default=True, help="number words equal digits"),
    Option("accents", str, default="language", choices=ACCENT_MODES, help="how diacritics are compared"),
    Option(
        "word_forms",
        bool,
        default=True,
        help="a plural (en, es) or a case ending on a one-word answer (et) is the same answer",
    ),
    Option(
        "list_extras",
        str,
        default="wrong",
        choices=LIST_EXTRAS,
        help="a list naming more than asked, one of them wrong: 'wrong' (a guess) or 'ignore' (count what is missing)",
    ),
)

#: every reason code a verdict can carry (``Verdict.code``), accepted ones first
ACCEPT_CODES = (
    "exact",
    "normalised",
    "capitals_part",
    "full_answer",
    "alternative",
    "surname",
    "explanation",
    "printed_words",
    "abbreviation",
    "numeral",
    "spoken_number",
    "era",
    "typo",
    "word_form",
    "number_exact",
    "number_within_tolerance",
    "date",
    "date_year_only",
    "date_contains_year",
    "option",
    "truefalse",
    "list_complete",
)
REJECT_CODES = (
    "empty",
    "no_match",
    "too_many_edits",
    "numeral_mismatch",
    "letter_mismatch",
    "symbol_mismatch",
    "era_mismatch",
    "entity_changed",
    "rejected_answer",
    "ambiguous",
    "number_off",
    "not_the_unit",
    "date_mismatch",
    "not_truefalse",
    "wrong_statement",
    "wrong_option",
    "list_incomplete",
    "list_extra_wrong",
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
    word_forms: bool = True
    list_extras: str = "wrong"

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
    ``accepted``, ``surname``, ``explanation``, ``option``, ``item``). ``code`` names the rule that decided
    (one of :data:`ACCEPT_CODES` or :data:`REJECT_CODES`) and ``params`` its parameters as ``(name, value)``
    pairs (also as a dict: :attr:`details`); ``reason`` says the same in words.
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
    code: str = ""
    params: tuple[tuple[str, Any], ...] = ()

    def __bool__(self) -> bool:
        return self.correct

    @property
    def details(self) -> dict[str, Any]:
        """``params`` as a dict."""
        return dict(self.params)


def _verdict(
    correct: bool,
    reason: str,
    method: str,
    code: str,
    *,
    matched: str | None = None,
    alternative: str | None = None,
    edits: int = 0,
    option: int | None = None,
    matched_items: tuple[str, ...] = (),
    missing: int = 0,
    params: Mapping[str, Any] | None = None,
) -> Verdict:
    return Verdict(
        correct,
        reason,
        method,
        matched,
        alternative,
        edits,
        option,
        matched_items,
        missing,
        code,
        tuple(params.items()) if params else (),
    )


# --- compiled answers ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Alt:
    compact: str  # normalised, no spaces
    label: str  # the text shown in reasons
    kind: str  # answer | full | accepted | surname | explanation | option | item | rejected
    target: int  # index of the target (answer, option or list item) it belongs to
    identity: tuple[str, ...]  # numbers, numerals, single letters, eras, signs: a typo never changes them
    contrast: frozenset[str]  # direction words (north, south …): a typo never changes them either
    applied: frozenset[str]  # normalisation steps that changed the text
    words: int  # how many words


@dataclass(frozen=True, slots=True)
class _Number:
    value: float
    tolerance: float
    tolerance_pct: float
    unit_tokens: frozenset[str]
    era: str = ""  # "bc" or "" (the default era)


@dataclass(frozen=True, slots=True)
class _Date:
    year: int
    month: int | None
    day: int | None
    full_date_asked: bool  # the question asks for the date, not just when


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
    max_length: int  # the longest alternative (no spaces)
    date: _Date | None = None
    typo_alts: tuple[tuple[_Alt, int, int, int], ...] = ()  # correct alternatives, length, budget, reach


_BRACKET_TEXT = re.compile(r"^[^\(\[]*|[\)\]][^\(\[]*")
_ALT_SPLIT = re.compile(r"\s+/\s+|\s*[;|\n]\s*")
_DIGITS = re.compile(r"\d+")
_SURNAME_PARTICLES = frozenset(
    ["da", "de", "del", "della", "der", "di", "dos", "du", "la", "le", "van", "von", "y", "ten", "ter", "zu"]
)  # kept with the surname: "da Vinci", "van Gogh"
#: generational suffixes: never a surname, may be left out ("Martin Luther King Jr." — "King")
_NAME_SUFFIXES = frozenset(["jr", "jr.", "sr", "sr.", "jnr", "snr", "junior", "senior", "hijo", "padre", "jun", "sen"])
#: titles before a name that may be left out when the name has a regnal number or is a person's name
_TITLES = {
    "en": frozenset(["pope", "king", "queen", "saint", "st", "st.", "emperor", "empress", "tsar", "czar", "sir"]),
    "es": frozenset(["papa", "rey", "reina", "san", "santa", "emperador", "emperatriz", "zar", "don", "doña"]),
    "et": frozenset(["paavst", "kuningas", "kuninganna", "keiser", "keisrinna", "tsaar", "püha"]),
}
#: Titles a player may put before a ruler's name that the card leaves out ("Emperor Hadrian" for HADRIAN): the
#: titles above but those that begin places or are names themselves (Santa Cruz is not Cruz; Don, Doña).
_ADDED_TITLES = {
    language: titles - {"saint", "st", "st.", "san", "santa", "don", "doña", "püha"}
    for language, titles in _TITLES.items()
}
#: A Roman numeral as written (a regnal number, a century): well formed, so a surname made of the same letters
#: ("LIIV", "CIVIC") is a name, not a number.
_ROMAN_WORD = re.compile(r"^(?=[IVXLCDM])M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})\.?$")
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
        "roughly",
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
        "ca",
    ]
)
_UNIT_ALIASES: dict[str, tuple[str, ...]] = {
    "m": ("m", "metre", "metres", "meter", "meters", "metro", "metros", "meetrit", "meetrit", "meeter"),
    "km": ("km", "kilometre", "kilometres", "kilometer", "kilometers", "kilometro", "kilometros", "kilomeetrit"),
    "kg": ("kg", "kilo", "kilos", "kilogram", "kilograms", "kilogramo", "kilogramos", "kilogrammi"),
    "years": ("year", "years", "yr", "yrs", "ano", "anos", "año", "años", "aasta", "aastat"),
    "%": ("%", "percent", "per", "cent", "por", "ciento", "protsenti", "protsent"),
    "c": ("c", "degrees", "degree", "celsius", "grados", "kraadi", "°c"),
    "f": ("f", "degrees", "degree", "fahrenheit", "grados", "kraadi", "°f"),
    "k": ("k", "kelvin", "kelvins", "kelvinit"),
}
_LINK_WORDS = {
    "en": frozenset({"the", "a", "an", "of", "and", "in"}),
    "es": frozenset({"el", "la", "los", "las", "de", "del", "y", "en"}),
    "et": frozenset({"ja"}),
}
_ALIAS_INDEX = {alias: key for key, aliases in _UNIT_ALIASES.items() for alias in aliases}
#: one-letter words that are words, not identities (unless they end the answer: "Vitamin A")
_LETTER_WORDS = {"en": frozenset("a"), "es": frozenset("yoeua"), "et": frozenset()}
#: direction and contrast words: a typo never turns one into another ("South Korea" is not "North Korea")
CONTRAST_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        [
            "north",
            "south",
            "east",
            "west",
            "northern",
            "southern",
            "eastern",
            "western",
            "upper",
            "lower",
            "new",
            "old",
            "great",
            "little",
            "greater",
            "lesser",
            "high",
            "low",
            "big",
            "small",
            "left",
            "right",
            "major",
            "minor",
            "senior",
            "junior",
            "inner",
            "outer",
        ]
    ),
    "es": frozenset(
        [
            "norte",
            "sur",
            "este",
            "oeste",
            "septentrional",
            "meridional",
            "oriental",
            "occidental",
            "alto",
            "alta",
            "bajo",
            "baja",
            "nuevo",
            "nueva",
            "viejo",
            "vieja",
            "gran",
            "grande",
            "pequeno",
            "pequena",
            "mayor",
            "menor",
            "superior",
            "inferior",
        ]
    ),
    "et": frozenset(
        ["põhja", "lõuna", "ida", "lääne", "ülem", "alam", "suur", "väike", "uus", "vana", "ülemine", "alumine"]
    ),
}

_NOT_LETTERS = re.compile(r"[\W\d_]+")
_INITIALS = re.compile(r"^(?:[^\W\d_]\.\s*)+")
_VOWELS = frozenset("aeiouyáéíóúüõäöàèìòùâêîôû")


def _is_capitals_word(word: str) -> bool:
    """At least two letters, all of them capitals (``BOLÍVAR``, ``DA``; not ``D.`` nor ``McCARTNEY``)."""
    letters = _NOT_LETTERS.sub("", word)
    return len(letters) >= 2 and letters.isupper()


def _marks_capitals(word: str) -> bool:
    """A capitals word that marks the required part: three letters or more with a vowel, not a Roman numeral.
    Ordinary capitalised tokens (``DC``, ``US``, ``CF``, ``BBC``, ``II``) are not such marks."""
    letters = _NOT_LETTERS.sub("", word)
    return (
        len(letters) >= 3
        and letters.isupper()
        and not _ROMAN_WORD.match(letters)
        and not _VOWELS.isdisjoint(letters.lower())
    )


def _capitals_part(core: str) -> str | None:
    """The words printed in capitals when the answer mixes capitals and lower case, else ``None``.

    Only capitals that mark a part count (see :func:`_marks_capitals`); two-letter capitals (``DA VINCI``) and a
    Roman numeral after a capitals word (``ELIZABETH II``) then belong to the part."""
    if core == core.upper():
        return None
    words = core.split()
    if not any(_marks_capitals(w) for w in words):
        return None
    picked = [w for w in words if _is_capitals_word(w) and not _ROMAN_WORD.match(_NOT_LETTERS.sub("", w) or "-")]
    out = []
    for i, w in enumerate(words):
        if w in picked or (
            _ROMAN_WORD.match(w.rstrip(".,")) and i and _is_capitals_word(words[i - 1]) and words[i - 1] in picked
        ):
            out.append(w)
    return " ".join(out) if out else None


def _name_words(name: str) -> tuple[list[str], list[str]]:
    """A name's words without generational suffixes and regnal numbers, and those suffixes."""
    words = name.split()
    suffixes: list[str] = []
    while len(words) > 1 and (words[-1].lower().rstrip(".,") in _NAME_SUFFIXES or _ROMAN_WORD.match(words[-1])):
        suffixes.insert(0, words.pop())
    if words and words[-1].endswith(","):
        words[-1] = words[-1][:-1]
    return words, suffixes


def _surnames(name: str, language: str) -> list[str]:
    words, suffixes = _name_words(name)
    if len(words) < 2 or any(_ROMAN_WORD.match(w) for w in (*words, *suffixes)):
        return []  # one name, or a regnal number ("Elizabeth II", "Gustav II Adolf"): no surname to give alone
    out: list[str] = []
    # the family name is the last word, with its particles ("da Vinci", "van Beethoven")
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in _SURNAME_PARTICLES:
        start -= 1
    out.append(" ".join(words[start:]))
    out.append(words[-1])
    if suffixes:
        out.append(" ".join([words[-1], *suffixes]))
    if language == "es" and len(words) >= 3:
        # Spanish: two surnames; the first one alone, or both ("García Márquez", "García")
        first = 1
        while first < len(words) - 1 and words[first].lower() in _SURNAME_PARTICLES:
            first += 1
        if len(words[first].rstrip(".")) > 1:  # an initial ("T. S. Eliot") is no surname
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
        return _normalise(text, language, True, True, "language")
    return _normalise(text, language, rules.articles, rules.number_words, rules.accents)


def _is_number_token(token: str) -> bool:
    return token[:1].isdigit() or (token[:1] == "-" and token[1:2].isdigit())


def _identity(tokens: Sequence[str], language: str) -> tuple[str, ...]:
    """What no typo may change: numbers (also Roman numerals and ordinals, already digits), one-letter words
    (``Vitamin A``), the era ``bc`` and signs (``C++``, ``-cos``)."""
    out: list[str] | None = None
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        if len(token) == 1:
            if token.isalpha() and i != last and token in _LETTER_WORDS.get(language, ()):
                continue
            item = token
        elif token.isalpha():
            if token != "bc":
                continue
            item = token
        elif any(c.isdigit() for c in token):
            item = token
        elif not SYMBOLS.isdisjoint(token):
            item = "".join(c for c in token if c in SYMBOLS)
        else:
            continue
        if out is None:
            out = [item]
        else:
            out.append(item)
    if out is None:
        return ()
    if len(out) > 1:
        out.sort()
    return tuple(out)


def _contrast(tokens: Sequence[str], language: str) -> frozenset[str]:
    words = CONTRAST_WORDS.get(language)
    if not words or words.isdisjoint(tokens):
        return frozenset()
    return frozenset(t for t in tokens if t in words)


_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{2})(?:-(\d{2}))?\s*$")


def _number_spec(text: str, language: str, rules: HouseRules) -> tuple[float, str, str] | None:
    """``(value, unit, era)`` when the printed answer is a number, possibly followed by a unit of a few words."""
    if _ISO_DATE.match(text):
        return None
    normal = _norm(strip_brackets(text), language, rules)
    tokens = list(normal.tokens)
    era = ""
    if "bc" in tokens[1:]:
        era = "bc"
        tokens.remove("bc")
    if not tokens or len(tokens) > 3:
        return None
    value = parse_number(tokens[0])
    if value is None:
        return None
    return value, " ".join(tokens[1:]), era


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
        normal = _norm(text, self.language, self.rules)
        if normal.compact:
            self.alts.append(
                _Alt(
                    normal.compact,
                    text.strip(),
                    kind,
                    target,
                    _identity(normal.tokens, self.language),
                    _contrast(normal.tokens, self.language),
                    normal.applied,
                    len(normal.tokens),
                )
            )

    def add_printed(
        self, printed: str, target: int, *, person: bool, first_kind: str = "answer", split: bool = True
    ) -> None:
        """Alternatives of an answer as printed: capitals part, full text, explanation, surname."""
        for n, raw in enumerate(_ALT_SPLIT.split(printed) if split else [printed]):
            raw = raw.strip()
            if not raw:
                continue
            core = strip_brackets(raw)
            kind = first_kind if n == 0 else "accepted"
            capitals = _capitals_part(core)
            initials_match = _INITIALS.match(core)
            if initials_match and not capitals and initials_match.end() < len(core):
                # printed initials are first names: "J. R. R. TOLKIEN" accepts "Tolkien"
                rest = core[initials_match.end() :]
                self.add(rest, "surname", target)
                letters = [c.lower() for c in initials_match.group(0) if c.isalpha()]
                self.optional_words.update(letters)
                self.optional_words.add("".join(letters))
            if capitals:
                self.add(capitals, kind, target)
                self.add(core, "full", target)
            else:
                self.add(core, kind, target)
            words = core.split()
            if len(words) > 2 and words[0].lower() in ARTICLES.get(self.language, ()):
                words = words[1:]  # "el rey Felipe II"
            if (
                len(words) >= 2
                and words[0].lower() in _TITLES.get(self.language, ())
                and (person or any(_ROMAN_WORD.match(w) or w.isdigit() for w in words[1:]))
            ):
                self.add(" ".join(words[1:]), "full", target)  # a title may be left out: "Pope John Paul II"
            if core != raw:
                self.add(" ".join(re.sub(r"[\(\)\[\]]", " ", raw).split()), "explanation", target)
                self.explanation_words.update(_norm(_BRACKET_TEXT.sub(" ", raw), self.language, self.rules).tokens)
            if capitals or person:
                # words outside the capitals (or a person's first names) may be given or left out, also as initials
                required = set(_norm(capitals, self.language, self.rules).tokens) if capitals else set()
                words, suffixes = _name_words(core) if person and not capitals else (core.split(), [])
                if person and not capitals and any(_ROMAN_WORD.match(w) for w in (*words, *suffixes)):
                    words, suffixes = core.split(), []  # "Elizabeth II", "Gustav II Adolf": nothing is optional
                else:
                    tokens = _norm(" ".join(words), self.language, self.rules).tokens
                    optional = [t for t in tokens if t not in required]
                    if not capitals:
                        optional = optional[:-1]
                    optional += list(_norm(" ".join(suffixes), self.language, self.rules).tokens) if suffixes else []
                    self.optional_words.update(optional)
                    initials = [t[0] for t in optional if t[0].isalpha()]
                    self.optional_words.update(initials)
                    for i in range(len(initials)):  # "A. H." is read as "ah"
                        for j in range(i + 2, len(initials) + 1):
                            self.optional_words.add("".join(initials[i:j]))
            if person and self.rules.surname_alone and not capitals:
                # (with a part in capitals, the capitals say which words are the name to give: "Juan Martín DEL
                # POTRO" is "Del Potro", never "Martín")
                for surname in _surnames(core, self.language):
                    self.add(surname, "surname", target)

    def build(self, number: _Number | None = None, date: _Date | None = None) -> _Compiled:
        exact: dict[str, _Alt] = {}
        for alt in self.alts:
            previous = exact.get(alt.compact)
            # a text that names a correct target and a wrong one is ambiguous: keep the wrong one (never accept)
            if previous is None or (previous.target in self.correct and alt.target not in self.correct):
                exact[alt.compact] = alt
        link = _LINK_WORDS.get(self.language, frozenset())
        return _Compiled(
            tuple(self.alts),
            exact,
            frozenset(self.correct),
            tuple(self.labels),
            number,
            self.language,
            self.rules,
            frozenset(self.optional_words) | link if self.optional_words else frozenset(),
            frozenset(self.explanation_words) | link if self.explanation_words else frozenset(),
            max((len(a.compact) for a in self.alts), default=0),
            date,
            tuple(
                (a, len(a.compact), self.rules.budget(len(a.compact)), max(self.rules.budget(len(a.compact)), 3))
                for a in self.alts
                if a.target in self.correct
            ),
        )


_DATE_WORDS = ("date", "day", "fecha", "dia", "día", "kuupäev", "kuupäeval", "päev", "päeval")


def _date_spec(text: str, prompt: str = "") -> _Date | None:
    match = _ISO_DATE.match(strip_brackets(text))
    if not match:
        return None
    year, month, day = match.groups()
    words = set(re.findall(r"\w+", prompt.casefold()))
    return _Date(int(year), int(month), int(day) if day else None, bool(words.intersection(_DATE_WORDS)))


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
    date = None
    if accepted:
        spec = _number_spec(accepted[0], language, rules)
        if spec is not None:
            number = _Number(spec[0], 0.0, 0.0, _unit_tokens(spec[1], language, rules), spec[2])
        date = _date_spec(accepted[0])
    return builder.build(number, date)


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
    date = None
    if kind == "list":
        for item in items:
            builder.add_printed(item, builder.target(strip_brackets(item.split(" / ")[0]), True), person=person)
    elif kind in ("choice", "higher"):
        # an option is one text: " / " inside it is not a list of alternatives ("Sweden / Finland")
        for i, option in enumerate(options):
            builder.add_printed(
                option, builder.target(option, i == correct), person=False, first_kind="option", split=False
            )
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
                number = _Number(spec[0], float(tolerance or 0.0), float(tolerance_pct or 0.0), units, spec[2])
            date = _date_spec(answer, prompt)
    for text in rejected:
        builder.add(strip_brackets(text), "rejected", builder.target(strip_brackets(text), False))
    return builder.build(number, date)


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


_ET_CASES = ("s", "st", "sse", "l", "lt", "le", "ga", "ks", "ni", "na", "ta", "t")
_ET_ENDINGS = frozenset({*_ET_CASES, *(v + c for v in "aeiu" for c in _ET_CASES), *"aeiu"})


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


_IDENTITY_WORDS = {
    "numeral_mismatch": "a number or numeral",
    "letter_mismatch": "a single letter",
    "symbol_mismatch": "a sign or symbol",
    "era_mismatch": "the era",
}


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


# --- numbers and dates --------------------------------------------------------------------------------------

_MONTHS: dict[str, int] = {}
for _names in (
    "january february march april may june july august september october november december",
    "jan feb mar apr may jun jul aug sep oct nov dec",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "ene feb mar abr may jun jul ago sept oct nov dic",
    "jaanuar veebruar märts aprill mai juuni juuli august september oktoober november detsember",
    "jaanuaril veebruaril märtsil aprillil mail juunil juulil augustil septembril oktoobril novembril detsembril",
    "jaanuaris veebruaris märtsis aprillis mais juunis juulis augustis septembris oktoobris novembris detsembris",
    "jaan veebr märts apr mai juuni juuli aug sept okt nov dets",
):
    for _n, _name in enumerate(_names.split(), start=1):
        _MONTHS.setdefault(_name, _n)
_MONTHS["setiembre"] = 9
_MONTHS["sept"] = 9
_DATE_FILLERS = frozenset(["of", "the", "on", "in", "de", "del", "el", "year", "ano", "aastal", "a", "aasta", "st"])
_NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})(?!\d)")


def _given_date(given: Normal, given_text: str) -> tuple[int | None, int | None, int | None] | None:
    """(year, month, day) of a date in the answer ("20 de octubre de 1956", "July 20, 1969", "20.10.1956",
    "1956-10-20"), else ``None``. Parts not given are ``None``."""
    match = _NUMERIC_DATE.search(given_text)
    if match:
        a, b, c = (int(x) for x in match.groups())
        if len(match.group(1)) == 4:
            return a, b, c
        if len(match.group(3)) == 4:
            if b > 12 >= a:
                return c, a, b  # m/d/yyyy
            return c, b, a
        return None
    month = None
    numbers: list[int] = []
    for token in given.tokens:
        if token in _MONTHS and month is None:
            month = _MONTHS[token]
        elif token.isdigit() and len(token) <= 4:
            numbers.append(int(token))
            if len(numbers) > 2:
                return None  # a date has at most two numbers
        elif token not in _DATE_FILLERS:
            return None
    if month is None or not numbers:
        return None
    day = next((n for n in numbers if 1 <= n <= 31 and len(numbers) == 2), None)
    years = [n for n in numbers if n is not day] if day is not None else numbers
    if len(numbers) == 2 and day is not None and len(years) == 2:
        years = [numbers[1]] if numbers[0] == day else [numbers[0]]
    year = years[0] if years else None
    if len(numbers) == 1 and numbers[0] <= 31:
        return None, month, numbers[0]
    return year, month, day


def _match_date(compiled: _Compiled, spec: _Date, given: Normal, given_text: str) -> Verdict | None:
    asked = f"{spec.year:04d}" + (f"-{spec.month:02d}" if spec.month else "") + (f"-{spec.day:02d}" if spec.day else "")
    tokens = [t for t in given.tokens if t not in _FILLERS]
    if len(tokens) == 1 and tokens[0].isdigit() and not _NUMERIC_DATE.search(given_text):
        if int(tokens[0]) != spec.year:
            return _verdict(
                False, f"the year {tokens[0]} is not {spec.year}", "wrong", "date_mismatch", params={"expected": asked}
            )
        if spec.full_date_asked and spec.day:
            return _verdict(
                False,
                f"the question asks for the date ({asked}), not only the year",
                "wrong",
                "date_mismatch",
                params={"expected": asked},
            )
        return _verdict(
            True,
            f"the year {spec.year} of {asked} is given",
            "number",
            "date_year_only",
            matched=asked,
            alternative="answer",
            params={"expected": asked},
        )
    parts = _given_date(given, given_text)
    if parts is None:
        return None
    year, month, day = parts
    ok = (
        year == spec.year
        and (spec.month is None or month == spec.month)
        and (spec.day is None or day in (spec.day, None))
    )
    if ok and spec.day and day is None and spec.full_date_asked:
        ok = False
    if ok:
        return _verdict(
            True,
            f"the date is {asked}",
            "number",
            "date",
            matched=asked,
            alternative="answer",
            params={"expected": asked},
        )
    return _verdict(False, f"the date given is not {asked}", "wrong", "date_mismatch", params={"expected": asked})


def _year_of_date(spec: _Number, shown: str, given: Normal, given_text: str) -> Verdict | None:
    """When a year is asked and a date with a month is given ("20 July 1969", "April 1939"): right if its year is
    the one asked, else off; ``None`` when the answer is no such date."""
    parts = _given_date(given, given_text)
    if parts is None or parts[0] is None or parts[1] is None:
        return None
    if parts[0] == int(spec.value):
        return _verdict(
            True,
            f"the date given contains the year {shown}",
            "number",
            "date_contains_year",
            matched=shown,
            alternative="answer",
            params={"expected": shown},
        )
    return _verdict(
        False,
        f"the date given is in {parts[0]}, not {shown}",
        "wrong",
        "number_off",
        matched=shown,
        params={"expected": shown, "given": parts[0]},
    )


_GLUED_UNIT = re.compile(r"^(-?\d+(?:\.\d+)?)([^\W\d_]+)$")


def _match_number(compiled: _Compiled, spec: _Number, given: Normal, given_text: str) -> Verdict | None:
    tokens = []
    for token in given.tokens:  # a number glued to the unit asked for is the number and its unit: "50m", "5kg"
        glued = _GLUED_UNIT.match(token) if spec.unit_tokens else None
        if glued is not None and glued.group(2) in spec.unit_tokens:
            tokens += [glued.group(1), glued.group(2)]
        else:
            tokens.append(token)
    era = ""
    if "bc" in tokens[1:]:
        era = "bc"
        tokens = [t for t in tokens if t != "bc"]
    found: list[tuple[int, float]] = []
    for i, t in enumerate(tokens):
        v = parse_number(t)
        if v is not None:
            found.append((i, v))
            if len(found) > 1:
                break  # only one number, or more than one, matters
    shown = format_number(spec.value) + (" BC" if spec.era else "")
    year_asked = spec.value.is_integer() and 1 <= spec.value <= 9999 and not spec.era
    if len(found) != 1:
        return _year_of_date(spec, shown, given, given_text) if len(found) > 1 and year_asked else None
    index, value = found[0]
    rest = [t for i, t in enumerate(tokens) if i != index]
    unknown = [t for t in rest if t not in spec.unit_tokens and t not in _FILLERS]
    if unknown:  # a day of a month: the month in another form ("10 of Nov", "10. novembril" for 10 NOVEMBER)
        months = {_MONTHS[u] for u in spec.unit_tokens if u in _MONTHS}
        unknown = [t for t in unknown if not (t == "of" and months) and _MONTHS.get(t, 0) not in months]
    if unknown and year_asked and not spec.unit_tokens:
        in_a_date = _year_of_date(spec, shown, given, given_text)  # "April 1939" for 1939
        if in_a_date is not None:
            return in_a_date
    rules = compiled.rules
    tolerance = max(
        spec.tolerance,
        rules.number_tolerance,
        abs(spec.value) * rules.number_tolerance_pct / 100.0,
        abs(spec.value) * spec.tolerance_pct / 100.0,
    )
    off = abs(value - spec.value)
    if unknown:
        return _verdict(
            False,
            f'the number {format_number(value)} is followed by "{" ".join(unknown)}", which is not the unit',
            "wrong",
            "not_the_unit",
            matched=shown,
            params={"expected": shown, "words": " ".join(unknown)},
        )
    if era != spec.era:
        return _verdict(
            False,
            f"{format_number(value)} {'BC' if era else 'AD'} is not {shown}: the era differs",
            "wrong",
            "era_mismatch",
            matched=shown,
            params={"expected": "BC" if spec.era else "AD", "given": "BC" if era else "AD"},
        )
    close = 1e-9 * max(1.0, abs(spec.value))
    if off <= close:
        unit_note = " (unit ignored)" if spec.unit_tokens and not rest else ""
        return _verdict(
            True,
            f"the number {shown} is exact{unit_note}",
            "number",
            "number_exact",
            matched=shown,
            alternative="answer",
            params={"expected": shown},
        )
    if off <= tolerance + close:
        return _verdict(
            True,
            f"{format_number(value)} is within the tolerance ±{format_number(tolerance)} of {shown}",
            "number",
            "number_within_tolerance",
            matched=shown,
            alternative="answer",
            params={"expected": shown, "given": format_number(value), "tolerance": format_number(tolerance)},
        )
    tol = f"±{format_number(tolerance)}" if tolerance else "none: the number must be exact"
    return _verdict(
        False,
        f"{format_number(value)} is off by {format_number(off)} from {shown} (tolerance {tol})",
        "wrong",
        "number_off",
        matched=shown,
        params={"expected": shown, "given": format_number(value), "tolerance": format_number(tolerance)},
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
#: Words that mean true or false in one language only: Estonian "vale" (false) is Spanish "OK".
_ONLY_IN = {"vale": "et"}
#: A list's items are separated by semicolons, new lines and commas — not a comma that groups thousands in a
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
                return _verdict(
                    True,
                    f"option {letter}) is the correct option",
                    "option",
                    "option",
                    matched=question.options[index],
                    alternative="option",
                    option=index,
                    params={"option": letter},
                )
            shown = question.options[index] if 0 <= index < len(question.options) else "no such option"
            right = OPTION_LETTERS[question.correct]
            return _verdict(
                False,
                f"option {letter}) {shown} is wrong; the answer is {right})",
                "wrong",
                "wrong_option",
                option=index,
                params={"option": letter, "correct": right},
            )
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
            code=verdict.code,
            params=verdict.params,
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
