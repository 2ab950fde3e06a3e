"""Text normalisation for judging answers: case, accents, punctuation, spacing, articles, numbers, numerals,
symbols, eras and abbreviations.

Normalisation is per language. Letters that a language treats as letters of their own (Estonian õ ä ö ü š ž,
Spanish ñ) are kept, so a difference in them still costs an edit; every other diacritic is dropped. Both the
accepted answer and the given answer go through the same steps, so two ways of writing the same thing meet:

* number words and digits (``twenty-one`` = ``21``; years read in pairs, ``nineteen sixty-nine`` = ``1969``;
  ``three and a half`` = ``3.5``; ``minus 273`` = ``-273``);
* ordinals and Roman numerals (``II`` = ``2`` = ``second`` = ``2nd`` = ``segundo`` = ``2º`` = ``teine``);
* eras (``BC`` = ``a. C.`` = ``eKr`` becomes ``bc``; ``AD`` = ``d. C.`` = ``pKr`` is the default era and is
  dropped);
* abbreviations of a per-language table (``USA`` = ``United States``; ``EE. UU.``; ``NSVL``);
* signs and symbols that change meaning are kept (``C++``, ``C#``, ``O-``, ``-cos``, ``%``, ``=``).

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
>>> normalise("Elizabeth the Second", "en").key, normalise("Elizabeth II", "en").key
('elizabeth 2', 'elizabeth 2')
>>> normalise("753 a. C.", "es").key, normalise("44 AD", "en").key
('753 bc', '44')
>>> normalise("EE. UU.", "es").key, normalise("C++", "en").key
('eeuu', 'c++')
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
_DIVIDE_MARK = "\ue002"
_APOSTROPHES = "'’‘`´ʻʼ"
_EXTRA_FOLDS = {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i", "ß": "ss"}
#: symbols that change meaning and are kept (``C++``, ``C#``); ``%``, ``=``, ``<``, ``>`` become words of their own
_KEPT_SYMBOLS = {"+": "+", "#": "#", "%": " % ", "=": " = ", "<": " < ", ">": " > ", "^": " ^ "}
SYMBOLS = frozenset("+#%=<>^-/")


class _FoldTable(dict[int, str]):
    """A lazily filled ``str.translate`` table: folds diacritics, maps punctuation to spaces."""

    def __init__(self, keep: frozenset[str]) -> None:
        super().__init__()
        self.keep = keep
        for ch in _APOSTROPHES:
            self[ord(ch)] = ""
        self[ord(_DECIMAL_MARK)] = "."
        self[ord(_MINUS_MARK)] = "-"
        self[ord(_DIVIDE_MARK)] = " / "
        for ch, out in _KEPT_SYMBOLS.items():
            self[ord(ch)] = out

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


_TABLES: dict[tuple[str, str], _FoldTable] = {}
_ACCENTED = frozenset({"á", "é", "í", "ó", "ú", "ü", "ñ", "à", "è", "ì", "ò", "ù", "ç", "ë", "ï", "õ", "ä", "ö"})


def _table(language: str, accents: str) -> _FoldTable:
    name = (language, accents)
    table = _TABLES.get(name)
    if table is None:
        if accents == "ignore":
            keep: frozenset[str] = frozenset()
        else:
            keep = DISTINCT_LETTERS.get(language, frozenset())
            if accents == "strict":
                keep = frozenset(keep | _ACCENTED | {"š", "ž"})
        table = _TABLES[name] = _FoldTable(keep)
    return table


# Possessive quantifiers and the look-behind keep these linear on long runs of digits.
_NUMBER = re.compile(r"(?<![\d.,])\d++(?:[.,]\d++)+")
#: Thousands grouped by spaces, as Estonian and Spanish (and SI style) write them: ``300 000``, ``1 234 567``.
#: The first group has one to three digits and every other group exactly three; no part of a longer number.
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})++(?![\d])")
_HAS_DIGIT = re.compile(r"\d")
_NEGATIVE = re.compile(r"(?<![\w.])[-−](?=\d)")
_PLUS_NUMBER = re.compile(r"(?<![\w.+])\+(?=\d)")
#: a sign before a word ("-cos(x)") or after one ("O-", "Rh−"): it changes the meaning, so it is kept
_SIGN_BEFORE = re.compile(r"(?:^\s*|(?<=[\s(\[=]))[-−](?:(?<=^[-−])\s+|(?<=^\s[-−])\s+)?(?=[^\W\d_]|\()")
_SIGN_AFTER = re.compile(r"(?<=[^\W_])[-−](?=$|[\s)\],;])")  # after a letter or a digit: "O-", "0-" (blood groups)
_FORMULA_MINUS = re.compile(r"(?<=\s)[-−](?=\s)|(?<=\w)−(?=\w)")
#: the ordinal indicator after a digit (``2º``, ``1.ª``): replaced by a space with a plain string (no template, no
#: function called per match: a 4 KiB answer of ``1º 1º …`` was a millisecond of callbacks)
_ORDINAL_INDICATOR = re.compile(r"(?<=\d)\s*\.?\s*[ºª]")


_VULGAR_HALF = re.compile(r"(\d)\s*½")
_AMPERSAND = re.compile(r"\s&\s|\s+['’]n['’]?\s+")
#: the thousands separator of each language (the other one is the decimal separator)
THOUSANDS_SEPARATOR = {"en": ",", "es": ".", "et": "."}
_AND_WORD = {"en": "and", "es": "y", "et": "ja"}


def _mark_numbers(text: str, language: str) -> str:
    """Mark decimal separators and minus signs so that they survive punctuation removal.

    Thousands separators are dropped: spaces between groups of three digits (``300 000``, ``299 792,458``; a
    no-break space is a space by now), a separator that occurs more than once (``1.000.000``), the first of two
    different ones (``1,234.5``), or the language's thousands separator before exactly three digits (en
    ``1,000``; es/et ``1.000``). Any other separator between digits is a decimal point (``3.14``, ``3,5``).
    """
    thousands = THOUSANDS_SEPARATOR.get(language, ",")
    if " " in text:
        text = _SPACED_THOUSANDS.sub(lambda m: m.group(0).replace(" ", ""), text)

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

    if "," in text or "." in text:
        text = _NUMBER.sub(number, text)
    if "+" in text:
        text = _PLUS_NUMBER.sub("", text)
    return _NEGATIVE.sub(_MINUS_MARK, text)


def _mark_symbols(text: str, language: str) -> str:
    """Keep signs that change the meaning: a minus before or after a word, and in a formula (a text with
    ``=``) also division and subtraction; multiplication signs are dropped (``I*R`` = ``IR``)."""
    if "&" in text or "'n" in text or "’n" in text:
        text = _AMPERSAND.sub(f" {_AND_WORD.get(language, 'and')} ", text)
    if "=" in text:
        text = text.replace("÷", _DIVIDE_MARK).replace("/", _DIVIDE_MARK)
        text = text.replace("*", " ").replace("×", " ").replace("·", " ")
        text = _FORMULA_MINUS.sub(" " + _MINUS_MARK + " ", text)
    if "-" in text or "−" in text:
        text = _SIGN_BEFORE.sub(_MINUS_MARK, text)
        text = _SIGN_AFTER.sub(_MINUS_MARK, text)
    return text


# --- number words -------------------------------------------------------------------------------------------

_UNIT, _SCALE, _HUNDRED = 0, 1, 2


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
    table.update({"hundred": (100, _HUNDRED), "thousand": (1000, _SCALE), "million": (1_000_000, _SCALE)})
    return table


def _english_ordinals() -> dict[str, int]:
    words = [
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
    ]
    table = {w: i for i, w in enumerate(words, start=1)}
    tens = ["twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"]
    table.update({w: i * 10 for i, w in enumerate(tens, start=2)})
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
    for w in ("ochocientas", "novecientas"):
        table[w] = (table[w[:-2] + "os"][0], _UNIT)
    table.update({"mil": (1000, _SCALE), "millon": (1_000_000, _SCALE), "millones": (1_000_000, _SCALE)})
    return table


def _spanish_ordinals() -> dict[str, int]:
    table: dict[str, int] = {}
    forms = {
        1: "primero primer primera",
        2: "segundo segunda",
        3: "tercero tercer tercera",
        4: "cuarto cuarta",
        5: "quinto quinta",
        6: "sexto sexta",
        7: "septimo septima setimo setima",
        8: "octavo octava",
        9: "noveno novena nono",
        10: "decimo decima",
        11: "undecimo undecima decimoprimero decimoprimera",
        12: "duodecimo duodecima decimosegundo decimosegunda",
        13: "decimotercero decimotercer decimotercera",
        14: "decimocuarto decimocuarta",
        15: "decimoquinto decimoquinta",
        16: "decimosexto decimosexta",
        17: "decimoseptimo decimoseptima",
        18: "decimoctavo decimoctava decimooctavo",
        19: "decimonoveno decimonovena",
        20: "vigesimo vigesima",
        30: "trigesimo trigesima",
    }
    for value, words in forms.items():
        table.update({w: value for w in words.split()})
    return table


_ET_STEMS = ["ühe", "kahe", "kolme", "nelja", "viie", "kuue", "seitsme", "kaheksa", "üheksa"]


def _estonian_numbers() -> dict[str, tuple[int, int]]:
    units = ["null", "üks", "kaks", "kolm", "neli", "viis", "kuus", "seitse", "kaheksa", "üheksa"]
    table = {w: (i, _UNIT) for i, w in enumerate(units)}
    table["kümme"] = (10, _UNIT)
    for i, w in enumerate(units[1:], start=1):
        table[w + "teist"] = (10 + i, _UNIT)
        if i >= 2:
            table[w + "kümmend"] = (10 * i, _UNIT)
            table[_ET_STEMS[i - 1] + "kümne"] = (10 * i, _UNIT)  # genitive: "kahekümne esimene" (21st)
        table["sada" if i == 1 else w + "sada"] = (100 * i, _UNIT)
    table.update({"tuhat": (1000, _SCALE), "miljon": (1_000_000, _SCALE)})
    return table


def _estonian_ordinals() -> dict[str, int]:
    forms = {
        1: "esimene esimese",
        2: "teine teise",
        3: "kolmas kolmanda",
        4: "neljas neljanda",
        5: "viies viienda",
        6: "kuues kuuenda",
        7: "seitsmes seitsmenda",
        8: "kaheksas kaheksanda",
        9: "üheksas üheksanda",
        10: "kümnes kümnenda",
    }
    table = {w: value for value, words in forms.items() for w in words.split()}
    for i, stem in enumerate(_ET_STEMS, start=1):
        table[stem + "teistkümnes"] = 10 + i
        table[stem + "teistkümnenda"] = 10 + i
        if i >= 2:
            table[stem + "kümnes"] = 10 * i
            table[stem + "kümnenda"] = 10 * i
    return table


NUMBER_WORDS: dict[str, dict[str, tuple[int, int]]] = {
    "en": _english_numbers(),
    "es": _spanish_numbers(),
    "et": _estonian_numbers(),
}
#: ordinal words: ``second`` = 2 (so "Elizabeth the Second" = "Elizabeth II" = "Elizabeth 2")
ORDINAL_WORDS: dict[str, dict[str, int]] = {
    "en": _english_ordinals(),
    "es": _spanish_ordinals(),
    "et": _estonian_ordinals(),
}
for _language, _ordinals in ORDINAL_WORDS.items():
    for _word, _value in _ordinals.items():
        NUMBER_WORDS[_language].setdefault(_word, (_value, _UNIT))
_CONNECTORS = {"en": frozenset({"and"}), "es": frozenset({"y"}), "et": frozenset()}
#: words that are numbers only when they are the whole answer (elsewhere they are articles)
_ALONE_NUMBERS = {"es": {"un": "1", "una": "1"}, "en": {}, "et": {}}
_HALF = {"en": ("and", "a", "half"), "es": ("y", "medio"), "et": ("ja", "pool")}
_HALF_ALT = {"es": ("y", "media")}
_MINUS_WORDS = {"en": frozenset({"minus", "negative"}), "es": frozenset({"menos"}), "et": frozenset({"miinus"})}


def _replace_number_words(tokens: list[str], language: str) -> list[str]:
    words = NUMBER_WORDS.get(language)
    if not words or words.keys().isdisjoint(tokens):
        return tokens
    if len(tokens) == 1:
        alone = _ALONE_NUMBERS.get(language, {}).get(tokens[0])
        if alone:
            return [alone]
    connectors = _CONNECTORS.get(language, frozenset())
    english = language == "en"
    out: list[str] = []
    total = current = 0
    in_number = False
    for i, token in enumerate(tokens):
        entry = words.get(token)
        if entry is None and in_number:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if token in connectors and nxt in words:
                continue
            if english and token in ("oh", "o") and 10 <= current <= 99 and not total and nxt in words:
                current *= 100  # "nineteen oh five"
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
        elif kind == _HUNDRED:
            current = max(current, 1) * 100
        elif english and 10 <= value <= 99 and 10 <= current <= 99 and not total:
            current = current * 100 + value  # a year read in pairs: "nineteen sixty" (then "nine")
        elif english and 10 <= value <= 99 and current >= 1000 and current % 100 == 0 and not total:
            current += value
        else:
            current += value
    if in_number:
        out.append(str(total + current))
    return out


# --- numerals, eras, phrases --------------------------------------------------------------------------------

_ROMAN = re.compile(r"^m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
#: words that look like Roman numerals but are words (mi, di, vi, li, mix …)
_NOT_ROMAN = frozenset({"mi", "di", "li", "vi", "mix", "dix", "civ", "vic", "xl", "dvi", "lix", "mcm", "ci", "cdi"})
_ROMAN_LETTERS = frozenset("ivxlcdm")
#: a single letter after these is a variable, not a numeral ("cos x")
_MATH_WORDS = frozenset({"sin", "cos", "tan", "cot", "sec", "log", "ln", "exp", "sqrt", "lim", "of", "de", "y", "and"})
_ORDINAL_SUFFIX = re.compile(r"^(\d+)(?:st|nd|rd|th|o|a|er|ro|do|to|mo|vo|no|ma|na|ta)$")


@lru_cache(maxsize=4096)
def roman_value(token: str) -> int | None:
    """The value of a lower-case Roman numeral (``'xiv'`` → 14), else ``None``."""
    if not token or not _ROMAN.match(token):
        return None
    total = 0
    for a, b in zip(token, token[1:] + " ", strict=True):
        value = _ROMAN_VALUES[a]
        total += -value if b != " " and _ROMAN_VALUES[b] > value else value
    return total


def _merge_letters(tokens: list[str]) -> list[str]:
    """Runs of single letters are one word: ``U. S. A.`` = ``USA``, ``J. R. R.`` = ``JRR``."""
    out: list[str] = []
    run = ""
    for token in tokens:
        if len(token) == 1 and token.isalpha():
            run += token
            continue
        if run:
            out.append(run)
            run = ""
        out.append(token)
    if run:
        out.append(run)
    return out


def _numerals(tokens: list[str], letters_only: bool = False) -> tuple[list[str], bool]:
    """Roman numerals and ordinal suffixes become digits: ``XIV`` → 14, ``21st`` → 21, ``2º`` → 2.

    A single letter I, V or X is a numeral only after a word (``Henry V``, ``World War I``, ``Malcolm X``); a
    longer numeral (``XVI``, ``II Guerra Mundial``) anywhere, unless it is a word (``mi``, ``vi``, ``mix``)."""
    changed = False
    out = tokens
    for i, token in enumerate(tokens):
        first = token[0]
        if letters_only and len(token) != 1:
            continue
        if first.isdigit():
            if token.isdigit():
                continue  # digits only: no ordinal suffix to drop
            match = _ORDINAL_SUFFIX.match(token)
            if match:
                if out is tokens:
                    out = list(tokens)
                out[i] = match.group(1)
                changed = True
            continue
        if first not in _ROMAN_LETTERS or token in _NOT_ROMAN or not _ROMAN_LETTERS.issuperset(token):
            continue
        if "i" not in token and "v" not in token and "x" not in token:
            continue
        if len(token) == 1:
            previous = tokens[i - 1] if i else ""
            if len(previous) < 2 or not previous.isalpha() or previous in _MATH_WORDS:
                continue
        value = roman_value(token)
        if value is None:
            continue
        if out is tokens:
            out = list(tokens)
        out[i] = str(value)
        changed = True
    return out, changed


_ERAS_BC = ("bc", "bce", "ac", "ane", "ekr", "e kr", "ema", "antes de cristo", "a de c", "enne kristust")
_ERAS_AD = ("ad", "ce", "dc", "pkr", "p kr", "maj", "despues de cristo", "d de c", "pärast kristust", "parast kristust")
_ERA_TABLE: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _era, _forms in (("bc", _ERAS_BC), ("", _ERAS_AD)):
    for _form in _forms:
        _parts = tuple(_form.split())
        _ERA_TABLE.setdefault(_parts[0], []).append((_parts, _era))
for _entries in _ERA_TABLE.values():
    _entries.sort(key=lambda e: -len(e[0]))
_ERA_FIRST = frozenset(_ERA_TABLE)


def _eras(tokens: list[str]) -> tuple[list[str], bool]:
    """An era after a number: BC (``a. C.``, ``eKr``, ``e.m.a.``) becomes ``bc``; AD (``d. C.``, ``pKr``, ``CE``)
    is the default era and is dropped."""
    out: list[str] = []
    changed = False
    i = 0
    n = len(tokens)
    while i < n:
        token = tokens[i]
        out.append(token)
        i += 1
        if token == "ad" and i < n and tokens[i][:1].isdigit():
            out.pop()  # "AD 79"
            changed = True
            continue
        if i < n and tokens[i] in _ERA_FIRST and token[:1].isdigit():
            for parts, era in _ERA_TABLE[tokens[i]]:
                if tuple(tokens[i : i + len(parts)]) == parts:
                    if era:
                        out.append(era)
                    i += len(parts)
                    changed = True
                    break
    return out, changed


#: phrases replaced before number words are read (``por ciento`` would otherwise be read as a number)
_PERCENT = {
    "en": {"percent": "%", "per cent": "%", "pct": "%"},
    "es": {"por ciento": "%", "porciento": "%"},
    "et": {"protsenti": "%", "protsent": "%", "protsendi": "%"},
}

#: abbreviations: canonical form → other ways of writing it (normalised texts). Banks add others with `accept:`.
ABBREVIATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "usa": ("united states of america", "united states", "us"),
        "uk": ("united kingdom", "united kingdom of great britain and northern ireland"),
        "ussr": ("soviet union", "union of soviet socialist republics"),
        "un": ("united nations",),
        "eu": ("european union",),
        "uae": ("united arab emirates",),
        "nyc": ("new york city",),
        "mount": ("mt",),
        "saint": ("st",),
        "fort": ("ft",),
        "doctor": ("dr",),
        "world war 2": ("ww2", "wwii", "ww 2", "2 world war", "world war two"),
        "world war 1": ("ww1", "wwi", "ww 1", "1 world war", "great war"),
        "dna": ("deoxyribonucleic acid",),
        "jr": ("junior", "jnr"),
        "sr": ("senior", "snr"),
    },
    "es": {
        "eeuu": ("estados unidos", "estados unidos de america", "ee uu", "eua", "usa"),
        "urss": ("union sovietica", "union de republicas socialistas sovieticas"),
        "onu": ("naciones unidas", "organizacion de las naciones unidas"),
        "ue": ("union europea",),
        "reino unido": ("uk", "ru"),
        "monte": ("mte",),
        "adn": ("acido desoxirribonucleico",),
    },
    "et": {
        "nsvl": ("nõukogude liit", "nsv liit", "nõukogude sotsialistlike vabariikide liit", "noukogude liit"),
        "usa": ("ameerika ühendriigid", "ühendriigid", "ameerika uhendriigid", "ameerika ühendatud riigid"),
        "üro": ("ühinenud rahvaste organisatsioon", "uro"),
        "el": ("euroopa liit",),
        "ühendkuningriik": ("uk", "suurbritannia ja põhja iiri ühendkuningriik"),
    },
}
_PHRASES: dict[tuple[str, str, str], dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]] = {}


def _phrase_table(name: str, language: str, accents: str) -> dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]:
    key = (name, language, accents)
    table = _PHRASES.get(key)
    if table is None:
        fold = _table(language, accents)
        pairs: list[tuple[str, str]] = []
        if name == "percent":
            pairs = [(phrase, canonical) for phrase, canonical in _PERCENT.get(language, {}).items()]
        else:
            for canonical, variants in ABBREVIATIONS.get(language, {}).items():
                pairs.extend((variant, canonical) for variant in variants)
        table = {}
        for variant, canonical in pairs:
            parts = tuple(variant.translate(fold).split())
            canon = tuple(canonical.translate(fold).split())
            if parts and parts != canon:
                table.setdefault(parts[0], []).append((parts, canon))
        for entries in table.values():
            entries.sort(key=lambda e: -len(e[0]))
        _PHRASES[key] = table
    return table


def _replace_phrases(
    tokens: list[str], table: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]
) -> tuple[list[str], bool]:
    if table.keys().isdisjoint(tokens):
        return tokens, False
    out: list[str] = []
    i = 0
    n = len(tokens)
    changed = False
    while i < n:
        entries = table.get(tokens[i])
        if entries:
            for parts, replacement in entries:
                # the second word first: no slice for the many tokens that only start a phrase ("1", "the")
                if len(parts) > 1 and (i + 1 >= n or tokens[i + 1] != parts[1]):
                    continue
                if tuple(tokens[i : i + len(parts)]) == parts:
                    out.extend(replacement)
                    i += len(parts)
                    changed = True
                    break
            else:
                out.append(tokens[i])
                i += 1
        else:
            out.append(tokens[i])
            i += 1
    return out, changed


_EXTRA_TRIGGERS = {
    language: frozenset(
        {*_MINUS_WORDS.get(language, ()), "poolteist", "the", "el", "la", "half", "medio", "media", "pool"}
    )
    for language in (*LANGUAGES, "")
}


def _spoken_extras(tokens: list[str], language: str) -> list[str]:
    """``3 and a half`` → ``3.5``, ``minus 273`` → ``-273``, ``Elizabeth the 2`` → ``Elizabeth 2``."""
    out: list[str] = []
    half = _HALF.get(language, ())
    half_alt = _HALF_ALT.get(language, ())
    minus = _MINUS_WORDS.get(language, frozenset())
    i = 0
    n = len(tokens)
    while i < n:
        token = tokens[i]
        if token[:1].isdigit() and "." not in token:
            for pattern in (half, half_alt):
                if pattern and tuple(tokens[i + 1 : i + 1 + len(pattern)]) == pattern:
                    out.append(token + ".5")
                    i += 1 + len(pattern)
                    break
            else:
                out.append(token)
                i += 1
            continue
        if token in minus and i + 1 < n and tokens[i + 1][:1].isdigit() and (not out or out[-1] not in ("o", "mas")):
            out.append("-" + tokens[i + 1])
            i += 2
            continue
        if token == "poolteist":
            out.append("1.5")
            i += 1
            continue
        if token in ("the", "el", "la") and out and i + 1 < n and tokens[i + 1][:1].isdigit() and out[-1].isalpha():
            i += 1  # "Elizabeth the Second", "Felipe el Segundo"
            continue
        out.append(token)
        i += 1
    return out


# --- the normal form ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Normal:
    """A normalised text: ``tokens`` and the ``key`` (tokens joined by spaces) and ``compact`` (no spaces).

    ``applied`` names the steps that changed the text (``number_words``, ``numeral``, ``era``,
    ``abbreviation``), so a verdict can say which rule made two answers meet."""

    tokens: tuple[str, ...]
    key: str
    compact: str
    applied: frozenset[str] = frozenset()


_BRACKETS = re.compile(r"(?:^|\s+)[\(\[\{][^\(\)\[\]\{\}]*[\)\]\}](?=$|[\s,.;:!?])")


def strip_brackets(text: str) -> str:
    """Remove bracketed explanations; keeps the text if nothing else would remain. A bracket attached to a word
    is part of it (``cos(x)``), not an explanation.

    >>> strip_brackets("CANBERRA (not Sydney)")
    'CANBERRA'
    >>> strip_brackets("-cos(x)")
    '-cos(x)'
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
    accents: str | None = None,
) -> Normal:
    """Normalise ``text`` for comparison in ``language`` (see the module docstring).

    ``accents`` is ``language`` (the default), ``ignore`` or ``strict``; ``fold_accents=False`` is ``strict``."""
    mode = accents or ("language" if fold_accents else "strict")
    return _normalise(text, language, articles, number_words, mode)


_APPLIED: dict[tuple[str, ...], frozenset[str]] = {}
_EMPTY: frozenset[str] = frozenset()
_NO_PHRASES: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}


@dataclass(frozen=True, slots=True)
class _Context:
    """Everything normalisation needs for one language and accent mode, looked up once."""

    fold: _FoldTable
    articles: frozenset[str]
    percent: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]
    abbreviations: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]
    triggers: frozenset[str]


_CONTEXTS: dict[tuple[str, str], _Context] = {}


def _context(language: str, accents: str) -> _Context:
    context = _CONTEXTS.get((language, accents))
    if context is None:
        context = _CONTEXTS[(language, accents)] = _Context(
            _table(language, accents),
            ARTICLES.get(language, frozenset()),
            _phrase_table("percent", language, accents),
            _phrase_table("abbreviation", language, accents),
            _EXTRA_TRIGGERS.get(language, _EXTRA_TRIGGERS[""]),
        )
    return context


@lru_cache(maxsize=65536)
def _normalise(
    text: str, language: str, articles: bool, number_words: bool, accents: str | bool = "language"
) -> Normal:
    if accents is True:
        accents = "language"
    elif accents is False:
        accents = "strict"
    assert isinstance(accents, str)
    context = _context(language, accents)
    if text.isascii():
        folded = text.lower()
    else:
        if "º" in text or "ª" in text:
            text = _ORDINAL_INDICATOR.sub(" ", text)
        if "½" in text:
            text = _VULGAR_HALF.sub(lambda m: m.group(1) + _DECIMAL_MARK + "5", text)
        folded = unicodedata.normalize("NFKC", text).casefold()
    has_digit = _HAS_DIGIT.search(folded) is not None
    if has_digit:
        folded = _mark_numbers(folded, language)
    if not folded.isalnum():
        folded = _mark_symbols(folded, language)
    tokens = folded.translate(context.fold).split()
    applied: list[str] = []
    if articles and len(tokens) > 1 and tokens[0] in context.articles and not (len(tokens[0]) == len(tokens[1]) == 1):
        tokens = tokens[1:]  # (not "a" before another single letter: the initials "A. A. Milne", "A. H. Tammsaare")
    if len(tokens) > 1 and any(len(t) == 1 for t in tokens):
        tokens, changed = _numerals(tokens, letters_only=True)  # before "a. C." becomes "ac": "siglo V a. C."
        if changed:
            applied.append("numeral")
            has_digit = True
        tokens = _merge_letters(tokens)
    if number_words and tokens:
        tokens, changed = _replace_phrases(tokens, context.percent)
        replaced = _replace_number_words(tokens, language)
        if not context.triggers.isdisjoint(replaced):
            replaced = _spoken_extras(replaced, language)
        if changed or replaced != tokens:
            applied.append("number_words")
            has_digit = True
        tokens = replaced
    if tokens:
        tokens, changed = _numerals(tokens)
        if changed:
            has_digit = True
            if "numeral" not in applied:
                applied.append("numeral")
            if number_words and not context.triggers.isdisjoint(tokens):
                tokens = _spoken_extras(tokens, language)
    if has_digit and len(tokens) > 1:
        tokens, changed = _eras(tokens)
        if changed:
            applied.append("era")
    if tokens:
        tokens, changed = _replace_phrases(tokens, context.abbreviations)
        if changed:
            applied.append("abbreviation")
    if articles and len(tokens) > 1 and tokens[0] in context.articles:
        tokens = tokens[1:]
    if applied:
        names = tuple(applied)
        flags = _APPLIED.get(names)
        if flags is None:
            flags = _APPLIED[names] = frozenset(names)
    else:
        flags = _EMPTY
    return Normal(tuple(tokens), " ".join(tokens), "".join(tokens), flags)


def parse_number(token: str) -> float | None:
    """The value of a normalised number token (``'3.5'``, ``'-2'``, ``'1822'``), else ``None``."""
    if not token or not (token[0].isdigit() or (token[0] == "-" and len(token) > 1 and token[1].isdigit())):
        return None
    if len(token) > 40:
        return None  # not a number anyone says; float() of a 4,000-digit string is slow and meaningless
    try:
        return float(token)
    except ValueError:
        return None
