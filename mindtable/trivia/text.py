"""Text normalisation for judging answers: case, accents, punctuation, spacing, articles and number words.

Normalisation is per language. Letters that a language treats as letters of their own (Estonian õ ä ö ü š ž,
Spanish ñ) are kept, so a difference in them still costs an edit; every other diacritic is dropped.

>>> normalise("  The Beatles!", "en").key
'beatles'
>>> normalise("Ciudad de México", "es").key
'ciudad de mexico'
>>> normalise("Pärnu", "et").key
'pärnu'
>>> normalise("twenty-one", "en").key
'21'
>>> normalise("kakskümmend üks", "et").key
'21'
>>> normalise("3,5 km", "es").key
'3.5 km'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

LANGUAGES = ("en", "es", "et")

#: letters that are letters of their own in a language (a difference is an error, at most a typo)
DISTINCT_LETTERS: dict[str, frozenset[str]] = {
    "en": frozenset(),
    "es": frozenset("ñ"),
    "et": frozenset("õäöüšž"),
}

#: leading articles dropped before comparing (Estonian has no articles)
ARTICLES: dict[str, frozenset[str]] = {
    "en": frozenset({"the", "a", "an"}),
    "es": frozenset({"el", "la", "los", "las", "un", "una", "unos", "unas", "lo"}),
    "et": frozenset(),
}

_DECIMAL_MARK = "\ue000"
_MINUS_MARK = "\ue001"
_APOSTROPHES = "'’‘`´ʻʼ"
_EXTRA_FOLDS = {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i", "ß": "ss"}


class _FoldTable(dict[int, str]):
    """A lazily filled ``str.translate`` table: folds diacritics, maps punctuation to spaces."""

    def __init__(self, keep: frozenset[str]) -> None:
        super().__init__()
        self.keep = keep
        for ch in _APOSTROPHES:
            self[ord(ch)] = ""
        self[ord(_DECIMAL_MARK)] = "."
        self[ord(_MINUS_MARK)] = "-"

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        if ch in self.keep or ("a" <= ch <= "z") or ("0" <= ch <= "9"):
            out = ch
        elif ch in _EXTRA_FOLDS:
            out = _EXTRA_FOLDS[ch]
        else:
            category = unicodedata.category(ch)
            if category[0] == "L":
                decomposed = unicodedata.normalize("NFD", ch)
                out = "".join(c for c in decomposed if not unicodedata.combining(c)) or ch
                out = out.casefold()
            elif category[0] == "N":
                digit = unicodedata.digit(ch, None)
                out = str(digit) if digit is not None else " "
            elif category == "Mn":
                out = ""
            else:
                out = " "
        self[code] = out
        return out


_TABLES: dict[tuple[str, bool], _FoldTable] = {}


def _table(language: str, fold_accents: bool) -> _FoldTable:
    name = (language, fold_accents)
    table = _TABLES.get(name)
    if table is None:
        keep = DISTINCT_LETTERS.get(language, frozenset())
        if not fold_accents:
            keep = frozenset(keep | {"á", "é", "í", "ó", "ú", "ü", "ñ", "à", "è", "ì", "ò", "ù", "ç", "ë", "ï"})
        table = _TABLES[name] = _FoldTable(keep)
    return table


_NUMBER = re.compile(r"\d+(?:[.,]\d+)+")
_HAS_DIGIT = re.compile(r"\d")
_NEGATIVE = re.compile(r"(?<![\w.])[-−](?=\d)")
#: the thousands separator of each language (the other one is the decimal separator)
THOUSANDS_SEPARATOR = {"en": ",", "es": ".", "et": "."}


def _mark_numbers(text: str, language: str) -> str:
    """Mark decimal separators and minus signs so that they survive punctuation removal.

    Thousands separators are dropped: a separator that occurs more than once (``1.000.000``), the first of two
    different ones (``1,234.5``), or the language's thousands separator before exactly three digits (en
    ``1,000``; es/et ``1.000``). Any other separator between digits is a decimal point (``3.14``, ``3,5``).
    """
    thousands = THOUSANDS_SEPARATOR.get(language, ",")

    def number(match: re.Match[str]) -> str:
        digits = match.group(0)
        seps = [c for c in digits if c in ".,"]
        groups = re.split(r"[.,]", digits)
        if len(set(seps)) == 2:
            last = seps[-1]
            head, _, tail = digits.rpartition(last)
            return head.replace(seps[0], "") + _DECIMAL_MARK + tail
        if len(seps) > 1:
            return "".join(groups)
        if seps[0] == thousands and len(groups[1]) == 3:
            return "".join(groups)
        return groups[0] + _DECIMAL_MARK + groups[1]

    text = _NUMBER.sub(number, text)
    return _NEGATIVE.sub(_MINUS_MARK, text)


# --- number words -------------------------------------------------------------------------------------------

_UNIT, _SCALE = 0, 1


def _english_numbers() -> dict[str, tuple[int, int]]:
    words = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ]
    table = {w: (i, _UNIT) for i, w in enumerate(words)}
    for i, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=2):
        table[w] = (i * 10, _UNIT)
    table.update({"hundred": (100, _SCALE), "thousand": (1000, _SCALE), "million": (1_000_000, _SCALE)})
    return table


def _spanish_numbers() -> dict[str, tuple[int, int]]:
    words = [
        "cero",
        "uno",
        "dos",
        "tres",
        "cuatro",
        "cinco",
        "seis",
        "siete",
        "ocho",
        "nueve",
        "diez",
        "once",
        "doce",
        "trece",
        "catorce",
        "quince",
        "dieciseis",
        "diecisiete",
        "dieciocho",
        "diecinueve",
        "veinte",
        "veintiuno",
        "veintidos",
        "veintitres",
        "veinticuatro",
        "veinticinco",
        "veintiseis",
        "veintisiete",
        "veintiocho",
        "veintinueve",
    ]
    table = {w: (i, _UNIT) for i, w in enumerate(words)}
    table["veintiun"] = (21, _UNIT)
    for i, w in enumerate(["treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"], start=3):
        table[w] = (i * 10, _UNIT)
    hundreds = "cien doscientos trescientos cuatrocientos quinientos seiscientos setecientos ochocientos novecientos"
    for i, w in enumerate(hundreds.split(), start=1):
        table[w] = (i * 100, _UNIT)
    table["ciento"] = (100, _UNIT)
    for w in ("doscientas", "trescientas", "cuatrocientas", "quinientas", "seiscientas", "setecientas"):
        table[w] = (table[w[:-2] + "os"][0], _UNIT)
    table.update({"mil": (1000, _SCALE), "millon": (1_000_000, _SCALE), "millones": (1_000_000, _SCALE)})
    return table


def _estonian_numbers() -> dict[str, tuple[int, int]]:
    units = ["null", "üks", "kaks", "kolm", "neli", "viis", "kuus", "seitse", "kaheksa", "üheksa"]
    table = {w: (i, _UNIT) for i, w in enumerate(units)}
    table["kümme"] = (10, _UNIT)
    for i, w in enumerate(units[1:], start=1):
        table[w + "teist"] = (10 + i, _UNIT)
        if i >= 2:
            table[w + "kümmend"] = (10 * i, _UNIT)
        table["sada" if i == 1 else w + "sada"] = (100 * i, _UNIT)
    table.update({"tuhat": (1000, _SCALE), "miljon": (1_000_000, _SCALE)})
    return table


NUMBER_WORDS: dict[str, dict[str, tuple[int, int]]] = {
    "en": _english_numbers(),
    "es": _spanish_numbers(),
    "et": _estonian_numbers(),
}
_CONNECTORS = {"en": frozenset({"and"}), "es": frozenset({"y"}), "et": frozenset()}
#: words that are numbers only when they are the whole answer (elsewhere they are articles)
_ALONE_NUMBERS = {"es": {"un": "1", "una": "1"}, "en": {}, "et": {}}


def _replace_number_words(tokens: list[str], language: str) -> list[str]:
    words = NUMBER_WORDS.get(language)
    if not words or words.keys().isdisjoint(tokens):
        return tokens
    if len(tokens) == 1:
        alone = _ALONE_NUMBERS.get(language, {}).get(tokens[0])
        if alone:
            return [alone]
    connectors = _CONNECTORS.get(language, frozenset())
    out: list[str] = []
    total = current = 0
    in_number = False
    for i, token in enumerate(tokens):
        entry = words.get(token)
        if entry is None and in_number and token in connectors and i + 1 < len(tokens) and tokens[i + 1] in words:
            continue
        if entry is None:
            if in_number:
                out.append(str(total + current))
                total = current = 0
                in_number = False
            out.append(token)
            continue
        value, kind = entry
        in_number = True
        if kind == _SCALE:
            total += max(current, 1) * value
            current = 0
        elif value == 100 and current and current < 10 and language == "en":
            current *= 100
        else:
            current += value
    if in_number:
        out.append(str(total + current))
    return out


# --- the normal form ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Normal:
    """A normalised text: ``tokens`` and the ``key`` (tokens joined by spaces) and ``compact`` (no spaces)."""

    tokens: tuple[str, ...]
    key: str
    compact: str


_BRACKETS = re.compile(r"\s*[\(\[\{][^\)\]\}]*[\)\]\}]")


def strip_brackets(text: str) -> str:
    """Remove bracketed explanations; keeps the text if nothing else would remain.

    >>> strip_brackets("CANBERRA (not Sydney)")
    'CANBERRA'
    """
    if "(" not in text and "[" not in text and "{" not in text:
        return text
    stripped = _BRACKETS.sub("", text).strip()
    return stripped or text


def normalise(
    text: str,
    language: str = "en",
    *,
    articles: bool = True,
    number_words: bool = True,
    fold_accents: bool = True,
) -> Normal:
    """Normalise ``text`` for comparison in ``language`` (see the module docstring)."""
    return _normalise(text, language, articles, number_words, fold_accents)


@lru_cache(maxsize=65536)
def _normalise(text: str, language: str, articles: bool, number_words: bool, fold_accents: bool) -> Normal:
    folded = unicodedata.normalize("NFKC", text).casefold()
    if _HAS_DIGIT.search(folded):
        folded = _mark_numbers(folded, language)
    tokens = folded.translate(_table(language, fold_accents)).split()
    if articles and len(tokens) > 1 and tokens[0] in ARTICLES.get(language, ()):
        tokens = tokens[1:]
    if number_words:
        tokens = _replace_number_words(tokens, language)
    return Normal(tuple(tokens), " ".join(tokens), "".join(tokens))


def parse_number(token: str) -> float | None:
    """The value of a normalised number token (``'3.5'``, ``'-2'``, ``'1822'``), else ``None``."""
    if not token or not (token[0].isdigit() or (token[0] == "-" and len(token) > 1)):
        return None
    try:
        return float(token)
    except ValueError:
        return None
