"""Variant 3's made-up option: "If the question has no invented options, one other option besides the correct
one may be made up for them to try to guess."

A made-up option must not give itself away, so it is of the same kind as the answer and written the same way:

* a number for a number, a year for a year (a number near the answer, in figures, with the printed unit);
* otherwise, first a classic wrong answer the card lists (``reject:``), then a wrong answer of the same kind
  from the same booklet — a person for a person, a place of the same sort for a place (a city for a city, a
  country for a country), a thing of the same sort (a planet for a planet) — taken from the booklet's answers
  and from the wrong options its other questions print;
* a list ("name the three …") gets the same list with one name swapped for a wrong one;
* both options are written in the same plain case: no capitals marking the required part ("a she-WOLF" reads
  "She-Wolf", "twelve GRAPES" reads "Twelve Grapes"), a leading article dropped, roman numerals kept.

:func:`option_pair` gives the right option's text and the made-up one's; the booklet's pools are built once per
booklet text (:func:`_pools`, cached), so a replay makes the same option from the same state and generator.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from rapidfuzz import fuzz

from mindtable.core.rng import Rng
from mindtable.trivia.model import format_number
from mindtable.trivia.text import strip_brackets

#: Leading articles dropped from an option ("the cheetah" and "leopard" must not differ by the article).
_ARTICLES = {
    "en": ("the", "a", "an", "his", "her"),
    "es": ("el", "la", "los", "las", "un", "una", "lo", "su"),
}
#: Small words kept in lower case inside a name ("Strait of Gibraltar", "José de San Martín").
_SMALL = frozenset(
    {"of", "the", "and", "in", "on", "at", "to", "for", "de", "del", "la", "las", "los", "y", "e", "da", "das"}
    | {"do", "dos", "van", "von", "der", "den", "di", "du", "le"}
)
_ROMAN = re.compile(r"^(?=[IVXLCDM])M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")
_NUMBER_START = re.compile(r"^(-?\d[\d.,]*)\s*(.*)$")

#: The sorts of places and things a prompt names ("In which *city* …", "¿Qué *río* …"), each with its
#: words in English and Spanish; the first found in the prompt is its sort.
_PLACES: dict[str, tuple[str, ...]] = {
    "city": ("city", "cities", "capital", "town", "ciudad", "ciudades", "capital", "localidad"),
    "country": ("country", "countries", "nation", "país", "países", "nación"),
    "region": ("region", "province", "state", "region", "región", "provincia", "comunidad"),
    "river": ("river", "río"),
    "sea": ("ocean", "sea", "océano", "mar"),
    "mountain": ("mountain", "peak", "volcano", "montaña", "pico", "volcán", "cerro"),
    "desert": ("desert", "desierto"),
    "island": ("island", "isla"),
    "continent": ("continent", "continente"),
    "street": ("street", "square", "avenue", "calle", "plaza", "avenida"),
    "building": ("museum", "theatre", "stadium", "playhouse", "museo", "teatro", "estadio"),
    "strait": ("strait", "estrecho"),
}
_THINGS: dict[str, tuple[str, ...]] = {
    "planet": ("planet", "planeta", "celestial body", "cuerpo celeste"),
    "galaxy": ("galaxy", "galaxia"),
    "sport": ("sport", "deporte", "disciplina"),
    "animal": ("animal", "mammal", "bird", "insect", "rodent", "fish", "reptile", "mamífero", "ave", "insecto"),
    "gas": ("gas",),
    "element": ("element", "elemento", "metal"),
    "organ": ("organ", "bone", "órgano", "hueso", "part of the eye", "parte del ojo", "cells", "células"),
    "language": ("language", "idioma", "lengua"),
    "god": ("god", "goddess", "dios", "diosa"),
    "letter": ("letter", "letra"),
    "song": ("song", "canción", "tema"),
    "film": ("film", "movie", "película", "musical"),
    "band": ("band", "group", "grupo", "banda"),
    "food": ("dish", "soup", "food", "fruit", "ingredient", "cereal", "plato", "sopa", "fruta", "ingrediente"),
    "music": ("style of music", "genre", "dance", "género", "baile", "estilo"),
    "team": ("team", "club", "equipo"),
    "game": ("game", "video game", "juego", "videojuego"),
    "colour": ("colour", "color"),
    "word": ("word", "palabra", "called", "llama"),
}


def plain_case(text: str, language: str) -> str:
    """An answer as an option reads: its required part in plain title case, no leading article.

    >>> plain_case("a she-WOLF", "en"), plain_case("GREGORY XIII", "en"), plain_case("the Strait of GIBRALTAR", "en")
    ('She-Wolf', 'Gregory XIII', 'Strait of Gibraltar')
    >>> plain_case("José de SAN MARTÍN", "es"), plain_case("HAL 9000", "en"), plain_case("twelve GRAPES", "en")
    ('José de San Martín', 'HAL 9000', 'Twelve Grapes')
    >>> plain_case("Hattie McDANIEL", "en"), plain_case("Leonardo DiCAPRIO", "en"), plain_case("Paul McCartney", "en")
    ('Hattie McDaniel', 'Leonardo DiCaprio', 'Paul McCartney')
    """
    words = strip_brackets(text).split()
    articles = _ARTICLES.get(language, ())
    if len(words) > 1 and words[0].casefold() in articles:
        words = words[1:]
    model = any(any(c.isdigit() for c in w) for w in words)  # HAL 9000, R2-D2: a model name keeps its capitals
    return " ".join(_plain_word(w, first=i == 0, alone=len(words) == 1, model=model) for i, w in enumerate(words))


def _plain_word(word: str, *, first: bool, alone: bool, model: bool) -> str:
    if model or (_ROMAN.match(word) and (not first or alone) and len(word) <= 6):
        return word  # HAL 9000; Gregory XIII; "L"
    shown = []
    for k, part in enumerate(re.split(r"([-'’])", word)):
        letters = [c for c in part if c.isalpha()]
        if len(letters) <= 1 and part[:1].isupper():
            small = part.lower() in _SMALL and not first
            shown.append(part.lower() if small else part)  # "Vitamin D", "O'Higgins"; "Ramón y Cajal"
        elif letters and (all(c.isupper() for c in letters) or all(c.islower() for c in letters)):
            lower = part.lower()
            small = lower in _SMALL and not (first and k == 0)
            shown.append(lower if small else lower[:1].upper() + lower[1:])
        else:
            # written in ordinary case (Pérez, McCartney, d'Artagnan), or a capital marker inside a name
            # ("McDANIEL", "DiCAPRIO"): a run of capitals keeps only its first one
            shown.append(re.sub(r"[^\W\d_a-z]{2,}", lambda m: m.group(0)[0] + m.group(0)[1:].lower(), part))
    return "".join(shown)


def number_text(value: float, answer: str) -> str:
    """A numeric answer as an option reads: in figures, with the unit printed after the number ("100 °C")."""
    match = _NUMBER_START.match(strip_brackets(answer).strip())
    unit = match.group(2).strip() if match else ""
    if unit and (any(c.isdigit() for c in unit) or len(unit) > 12):
        unit = ""
    return f"{format_number(value)} {unit}".strip()


def is_year(question: dict[str, Any]) -> bool:
    value = question.get("value")
    return isinstance(value, (int, float)) and float(value).is_integer() and 1000 <= value <= 2100


def _near_number(value: float, year: bool, rng: Rng) -> float:
    """A wrong number near ``value``: a year a few years off, a small count one or two off, else ±10–30 %."""
    sign = 1 if rng.roll(2) == 1 else -1
    if year:
        wrong = value + sign * rng.randint(2, 15)
        return wrong if wrong >= 1000 else value + (value - wrong)  # a year stays a year of four figures
    if float(value).is_integer() and abs(value) <= 12:
        wrong = value + sign * rng.randint(1, 2)
        return wrong if (wrong >= 0) == (value >= 0) and wrong != 0 else value + rng.randint(1, 2)
    decimals = len(format_number(value).partition(".")[2])
    factor = 1 + sign * rng.randint(10, 30) / 100
    wrong = round(value * factor, decimals)
    if decimals == 0:
        # keep the answer's round figures: 300000 -> 240000, not 241873
        zeros = len(str(int(abs(value)))) - len(str(int(abs(value))).rstrip("0"))
        wrong = round(wrong, -zeros) if zeros else wrong
    if wrong == value:
        wrong = value + sign * (10**-decimals if decimals else 1)
    return float(round(wrong, decimals))


_ASKING = re.compile(r"\b(?:which|what|qué|cuál|cuáles|cuántos|cuántas)\b")


def _sort_of(prompt: str, table: dict[str, tuple[str, ...]]) -> str | None:
    """The sort a prompt asks for: a word of ``table`` among the four words after its "which/what/qué/cuál"."""
    text = prompt.casefold()
    asking = _ASKING.search(text)
    if asking is None:
        return None
    window = " ".join(re.findall(r"\w+", text[asking.end() :])[:4])
    found: list[tuple[int, str]] = []
    for sort, words in table.items():
        for word in words:
            m = re.search(rf"\b{re.escape(word)}\b", window)
            if m:
                found.append((m.start(), sort))
    return min(found)[1] if found else None


def kind_of(question: dict[str, Any]) -> tuple[str, str | None]:
    """The kind of a question's answer: ``("number"|"year"|"list"|"person", None)``, ``("place", sort)`` or
    ``("thing", sort)`` (``sort`` ``None`` when the prompt names none)."""
    if question["kind"] == "list":
        return "list", None
    if isinstance(question.get("value"), (int, float)):
        return ("year" if is_year(question) else "number"), None
    if question.get("person"):
        return "person", None
    prompt = question.get("prompt", "")
    place = _sort_of(prompt, _PLACES)
    if place is not None:
        return "place", place
    return "thing", _sort_of(prompt, _THINGS)


def right_text(question: dict[str, Any], language: str) -> str:
    """The right option as it is read out beside the made-up one."""
    if question["kind"] == "list":
        return ", ".join(plain_case(item.split(" / ")[0], language) for item in question["items"])
    value = question.get("value")
    if isinstance(value, (int, float)):
        return number_text(float(value), question.get("answer", ""))
    return plain_case(question.get("answer", ""), language)


Pool = dict[tuple[str, str | None], tuple[tuple[str, str, str], ...]]


@functools.lru_cache(maxsize=64)
def _pools(booklet_text: str, language: str) -> Pool:
    """The booklet's wrong-answer material by kind: ``{(kind, sort): ((question id, prompt, text), ...)}`` —
    each question's answer and the wrong options it prints, in plain case (``sort`` ``None``: the whole kind)."""
    from .rules import unpack_booklet

    pools: dict[tuple[str, str | None], list[tuple[str, str, str]]] = {}
    for _, questions in unpack_booklet(booklet_text):
        for q in questions:
            kind, sort = kind_of(q)
            if kind in ("number", "year"):
                continue
            texts = []
            if kind == "list":
                texts = [plain_case(item.split(" / ")[0], language) for item in q["items"]]
                kind = "person" if all(t[:1].isupper() for t in texts) else "thing"
            else:
                texts.append(plain_case(q.get("answer", ""), language))
            options = q.get("options") or []
            texts += [plain_case(o, language) for i, o in enumerate(options) if i != q.get("correct")]
            for key in {(kind, sort), (kind, None)}:
                pools.setdefault(key, []).extend((q["id"], q.get("prompt", ""), t) for t in texts if t)
    return {k: tuple(v) for k, v in pools.items()}


@functools.lru_cache(maxsize=65536)
def _bare(text: str) -> str:
    """The text casefolded without accents (kept: every candidate of a pool is compared again for each option)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


@functools.lru_cache(maxsize=65536)
def _words(bare: str) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", bare))


def _fits(candidate: str, right: str, taken: Sequence[str], has_digits: bool) -> bool:
    """A candidate may stand beside ``right``: not the answer nor a spelling of it, not part of it, not an
    accepted form, and a figure only beside a figure."""
    c, r = _bare(candidate), _bare(right)
    if not c or c == r or c in (_bare(t) for t in taken) or c == "?":
        return False
    if any(ch.isdigit() for ch in candidate) and not has_digits:
        return False
    if fuzz.ratio(c, r) >= 80:
        return False
    c_words, r_words = _words(c), _words(r)
    return not (c_words and (c_words <= r_words or r_words <= c_words))


def _shape(text: str) -> bool:
    """One word or several: "Milstein" beside "Luis Federico Leloir" would give the right one away."""
    return len(text.split()) > 1


def _pick(tiers: list[list[tuple[str, str]]], prompt: str, fits: Any, shape: bool, rng: Rng) -> str | None:
    """The made-up option from the first tier that has a fitting candidate of the right shape (one word or
    several), else of any shape: within a tier, one of the three whose question reads most like this one."""
    for same_shape in (True, False):
        for tier in tiers:
            seen: dict[str, str] = {}
            for source, text in tier:
                if fits(text) and (not same_shape or _shape(text) == shape):
                    seen.setdefault(text, source)
            if not seen:
                continue
            ranked = sorted(seen, key=lambda t: -fuzz.token_set_ratio(seen[t], prompt) if seen[t] else 0)
            top = ranked[: min(3, len(ranked))]
            return top[rng.randint(0, len(top) - 1)]
    return None


def option_pair(question: dict[str, Any], booklet_text: str, language: str, rng: Rng) -> tuple[str, str]:
    """``(right, made_up)``: the right option's text and one wrong option of the same kind (see the module)."""
    right = right_text(question, language)
    kind, sort = kind_of(question)
    value = question.get("value")
    if kind in ("number", "year") and isinstance(value, (int, float)):
        wrong = number_text(_near_number(float(value), kind == "year", rng), question.get("answer", ""))
        if wrong != right:
            return right, wrong
    accepted = [plain_case(a, language) for a in question.get("accepted", ())]
    pools = _pools(booklet_text, language)
    own, prompt = question["id"], question.get("prompt", "")
    rejected = [("", plain_case(r, language)) for r in question.get("rejected", ())]

    def pool(key: tuple[str, str | None]) -> list[tuple[str, str]]:
        return [(p, t) for qid, p, t in pools.get(key, ()) if qid != own]

    if kind == "list":
        names = right.split(", ")
        item_kind = "person" if all(n[:1].isupper() for n in names) else "thing"
        found = _pick(
            [rejected, pool((item_kind, None))],
            prompt,
            lambda t: all(_fits(t, n, accepted, False) for n in names),
            _shape(names[-1]),
            rng,
        )
        if found is None:
            return right, ", ".join(names[:-1])
        swapped = list(names)
        swapped[rng.randint(0, len(names) - 1)] = found
        return right, ", ".join(swapped)
    has_digits = any(ch.isdigit() for ch in right)
    tiers = [rejected, pool((kind, sort)) if sort is not None else [], pool((kind, None))]
    found = _pick(tiers, prompt, lambda t: _fits(t, right, accepted, has_digits), _shape(right), rng)
    return right, found if found is not None else "?"
