"""Compiling a printed answer once into the alternatives a given answer is compared with: the part in
capitals, the full text, explanations, surnames, accepted forms, known wrong answers, a number or a date."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import OSA

from mindtable.trivia.judge.verdict import DEFAULT_RULES, HouseRules
from mindtable.trivia.judge.words import (
    _ALIAS_INDEX,
    _DATE_WORDS,
    _LETTER_WORDS,
    _LINK_WORDS,
    _NAME_SUFFIXES,
    _ROMAN_WORD,
    _SURNAME_PARTICLES,
    _TITLES,
    _UNIT_ALIASES,
    CLASS_KINDS,
    CONTRAST_WORDS,
    EQUIVALENT_NAMES,
    KEYBOARD_LETTERS,
    NAME_WORDS,
)
from mindtable.trivia.model import Question
from mindtable.trivia.text import (
    ARTICLES,
    DISTINCT_LETTERS,
    ORDINAL_WORDS,
    SYMBOLS,
    Normal,
    _normalise,
    parse_number,
    strip_brackets,
)


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
    tokens: tuple[str, ...] = ()  # the normalised words


@dataclass(frozen=True, slots=True)
class _Number:
    value: float
    tolerance: float
    tolerance_pct: float
    unit_tokens: frozenset[str]
    era: str = ""  # "bc" or "" (the default era)
    counted: bool = False  # printed without a unit: a count word may follow ("three times")


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
    names: tuple[tuple[tuple[str, ...], int], ...] = ()  # a person's printed name (its words) and its target
    folded: _Compiled | None = None  # the same, with the letters a keyboard may lack folded (keyboard_letters)
    surname_forms: frozenset[str] = frozenset()  # surname_alone off: a person's surname, never enough alone
    kinds: frozenset[int] | None = None  # what kinds of thing the question asks for (CLASS_KINDS); None: unknown


_BRACKET_TEXT = re.compile(r"^[^\(\[]*|[\)\]][^\(\[]*")
_ALT_SPLIT = re.compile(r"\s+/\s+|\s*[;|\n]\s*")
_DIGITS = re.compile(r"\d+")
_NOT_LETTERS = re.compile(r"[\W\d_]+")
_INITIALS = re.compile(r"^(?:[^\W\d_]\.\s*)+")
_INITIAL = re.compile(r"^[^\W\d_]\.$")  # "M." in Charles M. SCHULZ: an initial, not the numeral 1000
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
    if len(tokens) > 1:
        words = strip_brackets(text).split()
        while len(words) > 1 and words[0].casefold() in ARTICLES.get(language, ()):
            words = words[1:]
        if words and words[0].casefold().strip(".,") in ORDINAL_WORDS.get(language, {}):
            return None  # an ordinal word in a name is no number: "the first Moon landing" is not 1
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
        self.names: list[tuple[tuple[str, ...], int]] = []
        #: with ``surname_alone`` off: each person target's surname words (an accepted form made of them alone
        #: is the surname alone: "Kross", "Tolstoy" for Lev TOLSTOI)
        self.surname_words: dict[int, set[str]] = {}
        self.name_question = False  # the question asks for the name itself: no other language's name
        self.kinds: frozenset[int] | None = None  # the kinds of thing the question's words name (CLASS_KINDS)

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
                    normal.tokens,
                )
            )

    def _whole_name(self, core: str, person: bool) -> bool:
        """With ``surname_alone`` off, a person's name of several words is asked for whole (not a regnal name:
        "Gustav II Adolf" keeps its own forms)."""
        if not person or self.rules.surname_alone:
            return False
        words = core.split()
        return len(words) > 1 and not any(_ROMAN_WORD.match(w) and not _INITIAL.match(w) for w in words)

    def _is_surname_alone(self, core: str, target: int) -> bool:
        """An accepted form that is only (a spelling of) the surname of the person's printed name."""
        surnames = self.surname_words.get(target)
        if not surnames:
            return False
        tokens = _norm(core, self.language, self.rules).tokens
        if not tokens or len(tokens) > 3:
            return False
        if any(_spelt_alike("".join(tokens), s) for s in surnames):
            return True  # "del Cano" for ELCANO, "Berners Lee" for BERNERS-LEE
        return all(t in _SURNAME_PARTICLES or any(_spelt_alike(t, s) for s in surnames) for t in tokens)

    def _note_surname(self, raw: str, core: str, capitals: str | None, target: int) -> None:
        """The surname words of a person's printed name: the capitals, else the last word with its particles;
        their parts joined by hyphens; the capitalised words of a bracketed explanation (a real name)."""
        words, _ = _name_words(core)
        start = len(words) - 1
        while start > 1 and words[start - 1].lower() in _SURNAME_PARTICLES:
            start -= 1
        parts = [" ".join(words[start:])]  # the last word with its particles ("LEONARDO da Vinci": "da Vinci")
        if capitals and core.rstrip(" ,.").endswith(capitals.split()[-1]):
            parts.append(capitals)  # the capitals, where they end the name (not "LEONARDO", a name of its own)
        texts = [*parts, *(part.replace("-", " ") for part in parts)]
        texts += [w for w in _BRACKET_TEXT.sub(" ", raw).replace("-", " ").split() if w[:1].isupper()]
        found = self.surname_words.setdefault(target, set())
        for text in texts:
            normal = _norm(text, self.language, self.rules)
            found.update(t for t in normal.tokens if len(t) > 2)
            if len(normal.compact) > 2:
                found.add(normal.compact)

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
            whole = self._whole_name(core, person)
            if person and not self.rules.surname_alone:
                if target in self.surname_words:
                    if self._is_surname_alone(core, target):
                        continue  # the surname alone, printed as an accepted form: not enough under this house rule
                elif whole:
                    self._note_surname(raw, core, capitals, target)
            if person and len(core.split()) > 1:
                self.names.append((_norm(core, self.language, self.rules).tokens, target))
            initials_match = _INITIALS.match(core)
            if initials_match and not capitals and initials_match.end() < len(core):
                # printed initials are first names: "J. R. R. TOLKIEN" accepts "Tolkien"
                rest = core[initials_match.end() :]
                if not whole:
                    self.add(rest, "surname", target)
                letters = [c.lower() for c in initials_match.group(0) if c.isalpha()]
                if not whole:
                    self.optional_words.update(letters)
                    self.optional_words.add("".join(letters))
            if capitals and not whole:
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
            if whole:
                self._add_whole_name(core, capitals, kind, target)
            elif capitals or person:
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

    def _add_whole_name(self, core: str, capitals: str | None, kind: str, target: int) -> None:
        """``surname_alone`` off: the first name and the surname are asked for; middle names (and a suffix) may
        be left out or given as initials ("Anton Tammsaare", "A. H. Tammsaare" for Anton Hansen TAMMSAARE),
        never the surname alone."""
        words, suffixes = _name_words(core)
        tokens = _norm(" ".join(words), self.language, self.rules).tokens
        if len(tokens) < 2:
            return
        if capitals:
            marked = set(_norm(capitals, self.language, self.rules).tokens)
            tail = len(tokens)
            while tail > 1 and tokens[tail - 1] in marked:
                tail -= 1
            while tail > 1 and tokens[tail - 1] in _SURNAME_PARTICLES:
                tail -= 1  # "Antoine de SAINT-EXUPÉRY": the particle goes with the surname
            surname = tokens[tail:] if tail < len(tokens) else tokens[-1:]
        else:
            tail = len(tokens) - 1
            while tail > 1 and tokens[tail - 1] in _SURNAME_PARTICLES:
                tail -= 1
            surname = tokens[tail:]
        given = tokens[: len(tokens) - len(surname)]
        if not given:
            return
        middle = given[1:]
        self.optional_words.update(middle)
        self.optional_words.update(t[0] for t in middle if t[0].isalpha())
        if suffixes:
            self.optional_words.update(_norm(" ".join(suffixes), self.language, self.rules).tokens)
        alone = "".join(surname)
        forms = []
        if middle:
            forms.append(" ".join([given[0], *surname]))
        initials = [t[0] for t in given if t[:1].isalpha()]
        if len(initials) > 1:
            forms.append(" ".join([". ".join(initials) + ".", *surname]))
        for form in forms:
            if _norm(form, self.language, self.rules).compact != alone:  # never the surname alone ("L. A." is "la")
                self.add(form, "full", target)

    def build(self, number: _Number | None = None, date: _Date | None = None) -> _Compiled:
        if not self.name_question:
            self._add_other_language_names()
        compiled = self._build(number, date, self.alts, self.names)
        if (
            self.rules.keyboard_letters
            and self.rules.accents == "language"
            and self.rules.typos != "strict"
            and DISTINCT_LETTERS.get(self.language)
            and any(not DISTINCT_LETTERS[self.language].isdisjoint(a.compact) for a in self.alts)
        ):
            folded = [
                replace(a, compact=a.compact.translate(KEYBOARD_LETTERS), tokens=_fold_tokens(a.tokens))
                for a in self.alts
            ]
            names = [(_fold_tokens(tokens), target) for tokens, target in self.names]
            compiled = replace(compiled, folded=self._build(number, date, folded, names, fold=True))
        return compiled

    def _add_other_language_names(self) -> None:
        index = _equivalents(self.language, self.rules)
        if not index:
            return
        known = {a.compact for a in self.alts}
        for alt in list(self.alts):
            if alt.target not in self.correct or alt.kind not in ("answer", "full", "accepted", "option"):
                continue
            for i, token in enumerate(alt.tokens):
                for other, shown in index.get(token, ()):
                    compact = "".join((*alt.tokens[:i], other, *alt.tokens[i + 1 :]))
                    if compact in known:
                        continue
                    known.add(compact)
                    label = shown if len(alt.tokens) == 1 else f"{alt.label} ({shown})"
                    tokens = (*alt.tokens[:i], other, *alt.tokens[i + 1 :])
                    self.alts.append(replace(alt, compact=compact, label=label, kind="other_language", tokens=tokens))

    def _build(
        self,
        number: _Number | None,
        date: _Date | None,
        alts: list[_Alt],
        names: list[tuple[tuple[str, ...], int]],
        fold: bool = False,
    ) -> _Compiled:
        exact: dict[str, _Alt] = {}
        for alt in alts:
            previous = exact.get(alt.compact)
            # a text that names a correct target and a wrong one is ambiguous: keep the wrong one (never accept)
            if previous is None or (previous.target in self.correct and alt.target not in self.correct):
                exact[alt.compact] = alt
        link = _LINK_WORDS.get(self.language, frozenset())
        return _Compiled(
            tuple(alts),
            exact,
            frozenset(self.correct),
            tuple(self.labels),
            number,
            self.language,
            self.rules,
            frozenset(self.optional_words) | link if self.optional_words else frozenset(),
            frozenset(self.explanation_words) | link if self.explanation_words else frozenset(),
            max((len(a.compact) for a in alts), default=0),
            date,
            tuple(
                (a, len(a.compact), self.rules.budget(len(a.compact)), max(self.rules.budget(len(a.compact)), 3))
                for a in alts
                if a.target in self.correct and a.kind != "other_language"  # another language's name: exact only
            ),
            tuple(names),
            kinds=self.kinds,
            surname_forms=frozenset(
                form.translate(KEYBOARD_LETTERS) if fold else form
                for forms in self.surname_words.values()
                for form in forms
            ),
        )


def _kinds_named(tokens: tuple[str, ...], language: str) -> frozenset[int]:
    """The kinds of :data:`CLASS_KINDS` a question's words name ("Millises linnas …": a city)."""
    named = _token_kinds(language)
    found: set[int] = set()
    for token in tokens:
        kinds = named.get(token)
        if kinds is None:
            kinds = _kinds_of_token(token, language)
            if len(named) >= _TOKEN_KINDS_LIMIT:
                named.clear()
            named[token] = kinds
        found.update(kinds)
    return frozenset(found)


#: How many words a language's cache of :func:`_kinds_of_token` keeps (then it starts again).
_TOKEN_KINDS_LIMIT = 65_536
_TOKEN_KINDS: dict[str, dict[str, tuple[int, ...]]] = {}


def _token_kinds(language: str) -> dict[str, tuple[int, ...]]:
    """The cache of :func:`_kinds_of_token` for ``language``: word -> the kinds it names (a question's words
    recur from question to question: "which", "city", "capital" are looked up once)."""
    named = _TOKEN_KINDS.get(language)
    if named is None:
        named = _TOKEN_KINDS[language] = {}
    return named


def _kinds_of_token(token: str, language: str) -> tuple[int, ...]:
    """The kinds one of a question's words names: a word of the kind, or the word starting with one of the
    kind's words of four letters or more ("saare…")."""
    out = []
    for kind, (words, longest) in enumerate(_class_kinds(language)):
        if token in words or any(token[:n] in words for n in range(4, min(len(token), longest) + 1)):
            out.append(kind)
    return tuple(out)


@lru_cache(maxsize=8)
def _class_kinds(language: str) -> tuple[tuple[frozenset[str], int], ...]:
    """Each kind's words, normalised, with the length of its longest."""
    out = []
    for kind in CLASS_KINDS:
        words = frozenset(_norm(w, language, DEFAULT_RULES).compact for w in kind)
        out.append((words, max((len(w) for w in words), default=0)))
    return tuple(out)


def _fold_tokens(tokens: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(t.translate(KEYBOARD_LETTERS) for t in tokens)


@lru_cache(maxsize=32)
def _equivalents(language: str, rules: HouseRules) -> dict[str, tuple[tuple[str, str], ...]]:
    """Each normalised name of :data:`EQUIVALENT_NAMES` → the other names of its group (normalised, as printed)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for group in EQUIVALENT_NAMES:
        forms = [(_norm(name, language, rules).compact, name) for name in group]
        for compact, _ in forms:
            out.setdefault(compact, []).extend((c, shown) for c, shown in forms if c != compact)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def _spelt_alike(a: str, b: str) -> bool:
    """Two spellings of one name: equal, a letter or two apart for their length, or the same first five letters
    (Tolstoy/TOLSTOI, Gorbachev/GORBATŠOV, Mendeleev/MENDELEJEV)."""
    if a == b:
        return True
    a, b = a.translate(KEYBOARD_LETTERS), b.translate(KEYBOARD_LETTERS)
    if len(a) >= 5 and a[:5] == b[:5] and abs(len(a) - len(b)) <= 2:
        return True
    limit = max(1, min(len(a), len(b)) // 4)
    return bool(OSA.distance(sound_key(a), sound_key(b), score_cutoff=limit) <= limit)


def sound_key(text: str, language: str = "en", doubles: bool = True) -> str:
    """A spelling with sound-alike letters made one: ph → f, ck → k, c → k, x → ks, y → i, a doubled letter
    inside the word written once (not in Spanish rr and ll, which are letters of their own; not with
    ``doubles=False``), and a silent final e of a word of five letters or more dropped."""
    if language == "es":
        text = text.replace("rr", "R").replace("ll", "L")
    text = text.replace("ph", "f").replace("ck", "k").replace("c", "k").replace("x", "ks").replace("y", "i")
    if doubles and len(text) > 2:
        out = [text[0]]
        for i in range(1, len(text) - 1):
            if text[i] != text[i - 1]:
                out.append(text[i])
        out.append(text[-1])
        text = "".join(out)
    if len(text) >= 5 and text.endswith("e"):
        text = text[:-1]
    return text


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
            number = _Number(spec[0], 0.0, 0.0, _unit_tokens(spec[1], language, rules), spec[2], counted=not spec[1])
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
    if prompt:
        words = re.findall(r"\w+", prompt.casefold())
        builder.name_question = not NAME_WORDS.isdisjoint(words)
        builder.kinds = _kinds_named(tuple(_norm(prompt, language, rules).tokens), language)
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
            number = _Number(
                float(value), float(tolerance or 0.0), float(tolerance_pct or 0.0), units, counted=not unit
            )
        elif answer:
            spec = _number_spec(answer, language, rules)
            if spec is not None:
                units = _unit_tokens(spec[1], language, rules) | prompt_words
                number = _Number(
                    spec[0],
                    float(tolerance or 0.0),
                    float(tolerance_pct or 0.0),
                    units,
                    spec[2],
                    counted=not spec[1],
                )
            date = _date_spec(answer, prompt)
    for text in rejected:
        builder.add(strip_brackets(text), "rejected", builder.target(strip_brackets(text), False))
    return builder.build(number, date)
