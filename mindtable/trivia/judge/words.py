"""The judge's word lists, as data: particles, titles, fillers, units, direction words, months, true/false
words and the Estonian case endings (per language where they differ)."""

from __future__ import annotations

import re

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


_DATE_WORDS = ("date", "day", "fecha", "dia", "día", "kuupäev", "kuupäeval", "päev", "päeval")

_ET_CASES = ("s", "st", "sse", "l", "lt", "le", "ga", "ks", "ni", "na", "ta", "t")
_ET_ENDINGS = frozenset({*_ET_CASES, *(v + c for v in "aeiu" for c in _ET_CASES), *"aeiu"})

_IDENTITY_WORDS = {
    "numeral_mismatch": "a number or numeral",
    "letter_mismatch": "a single letter",
    "symbol_mismatch": "a sign or symbol",
    "era_mismatch": "the era",
}

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
