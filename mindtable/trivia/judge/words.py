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
    "min": ("min", "mins", "minute", "minutes", "minuto", "minutos", "minut", "minutit", "minuti"),
    "h": ("h", "hr", "hrs", "hour", "hours", "hora", "horas", "tund", "tundi", "tunni"),
    "s": ("s", "sec", "secs", "second", "seconds", "seg", "segundo", "segundos", "sek", "sekund", "sekundit"),
    "g": ("g", "gr", "gram", "grams", "gramme", "grammes", "gramo", "gramos", "gramm", "grammi"),
    "cm": ("cm", "centimetre", "centimetres", "centimeter", "centimeters", "centimetro", "centimetros", "sentimeetrit"),
    "mm": ("mm", "millimetre", "millimetres", "millimeter", "millimeters", "milimetro", "milimetros", "millimeetrit"),
    "days": ("day", "days", "dia", "dias", "día", "días", "päev", "päeva", "ööpäev", "ööpäeva"),
}
#: Words that count how often, after a number answer printed without a unit ("three times" for 3).
COUNT_WORDS = frozenset(["times", "time", "veces", "vez", "korda", "kord", "korral"])

#: Class words: a word for what the answer is, which a player may add around it ("the island of Crete", "Mount
#: Etna volcano", "Saaremaa saar"). ``before`` may precede the answer, ``before_of`` only with a linking word
#: ("the city of Paris": "Mexico City" is another place, so "city" never follows), ``after`` may follow it, and
#: in Estonian ``after`` may also be glued on (``tammepuu``, ``Peipsijärv``) or carry a case ending
#: (``Peipsi järvel``). Words that name another thing (state, county, canal, gulf, bay, falls) are not here.
CLASS_WORDS: dict[str, dict[str, frozenset[str]]] = {
    "en": {
        "before": frozenset(["planet", "mount", "lake", "river", "volcano"]),
        "before_of": frozenset(["island", "isle", "kingdom", "republic", "city", "town", "country", "principality"]),
        "after": frozenset(
            ["island", "volcano", "river", "lake", "circuit", "desert", "ocean", "mountain", "peninsula", "planet"]
        ),
        "of": frozenset(["of"]),
    },
    "es": {
        "before": frozenset(
            [
                "isla",
                "rio",
                "lago",
                "monte",
                "montaña",
                "volcan",
                "planeta",
                "circuito",
                "reino",
                "republica",
                "desierto",
                "peninsula",
                "oceano",
            ]
        ),
        "before_of": frozenset(),
        "after": frozenset(),
        "of": frozenset(["de", "del"]),
    },
    "et": {
        "before": frozenset(["planeet", "vulkaan"]),
        "before_of": frozenset(),
        "after": frozenset(
            [
                "saar",
                "järv",
                "jõgi",
                "linn",
                "mägi",
                "vulkaan",
                "planeet",
                "rada",
                "poolsaar",
                "kõrb",
                "ookean",
                "puu",
            ]
        ),
        "of": frozenset(),
    },
}

#: Estonian class words and their genitive stems: a case ending follows the stem ("järvel", "linnas", "jõe
#: ääres"), so "linnus" (a castle) is not "linn" with an ending.
ET_CLASS_STEMS: dict[str, str] = {
    "saar": "saare",
    "järv": "järve",
    "jõgi": "jõe",
    "linn": "linna",
    "mägi": "mäe",
    "vulkaan": "vulkaani",
    "planeet": "planeedi",
    "rada": "raja",
    "poolsaar": "poolsaare",
    "kõrb": "kõrbe",
    "ookean": "ookeani",
    "puu": "puu",
}
#: What kind of thing a class word says, in the three languages. When the question says what kind of thing it
#: asks for ("Which town …", "Millises linnas …", "¿En qué ciudad …"), a class word the player adds must say the
#: same kind: "Narva River" is not the town of Narva, "the Kingdom of Granada" not the city.
CLASS_KINDS: tuple[frozenset[str], ...] = (
    frozenset(
        ["city", "cities", "town", "towns", "capital", "linn", "linna", "pealinn", "ciudad", "ciudades", "capital"]
    ),
    frozenset(["river", "rivers", "jõgi", "jõe", "jõgede", "rio", "rios"]),
    frozenset(["lake", "lakes", "järv", "järve", "lago", "lagos"]),
    frozenset(["island", "islands", "isle", "saar", "saare", "saared", "isla", "islas"]),
    frozenset(
        [
            "mount",
            "mountain",
            "mountains",
            "volcano",
            "peak",
            "mägi",
            "mäe",
            "vulkaan",
            "tipp",
            "monte",
            "montaña",
            "volcan",
            "cerro",
            "pico",
        ]
    ),
    frozenset(["planet", "planets", "planeet", "planeedi", "planeta", "planetas"]),
    frozenset(
        [
            "country",
            "countries",
            "kingdom",
            "republic",
            "state",
            "nation",
            "riik",
            "riigi",
            "kuningriik",
            "pais",
            "reino",
            "republica",
            "estado",
            "nacion",
        ]
    ),
    frozenset(["circuit", "track", "race", "rada", "raja", "ring", "circuito", "pista", "carrera"]),
    frozenset(["desert", "deserts", "kõrb", "kõrbe", "desierto"]),
    frozenset(["ocean", "oceans", "sea", "ookean", "ookeani", "meri", "oceano", "mar"]),
    frozenset(["peninsula", "poolsaar", "poolsaare", "peninsula"]),
    frozenset(["tree", "trees", "puu", "puud", "arbol", "arboles"]),
)

#: The letters a keyboard may lack and what players type instead (house rule ``keyboard_letters``).
KEYBOARD_LETTERS = str.maketrans({"ñ": "n", "õ": "o", "ä": "a", "ö": "o", "ü": "u", "š": "s", "ž": "z"})

#: Short names one slip (a doubled or swapped letter, k/c, y/i …) apart from another real answer: a sound-alike
#: slip never turns one into another ("Cali" is not "Kali", "Lion" is not "Lyon").
KNOWN_NAMES = frozenset(
    [
        "cali",
        "kali",
        "lion",
        "lyon",
        "main",
        "maine",
        "ceres",
        "keres",
        "kant",
        "cant",
        "cork",
        "kork",
        "cole",
        "kole",
        "kobe",
        "cobe",
        "tyre",
        "tire",
        "nice",
        "nize",
        "bali",
        "mali",
        "bonn",
    ]
)

#: Famous people whose full name is a fuller form of another famous name ("John Quincy Adams" is not John ADAMS,
#: "George Herbert Walker Bush" not George W. BUSH): a fuller name never reaches them.
OTHER_PERSONS = frozenset(
    [
        "John Quincy Adams",
        "George Herbert Walker Bush",
        "George H. W. Bush",
        "George Walker Bush",
        "Charles Galton Darwin",
        "Erasmus Alvey Darwin",
        "Johann Christoph Bach",
        "Carl Philipp Emanuel Bach",
        "Johann Christian Bach",
        "Leopold Mozart",
        "Franz Xaver Mozart",
        "Alexander Calder",
        "Joseph Patrick Kennedy",
        "Robert Francis Kennedy",
        "Edward Moore Kennedy",
        "Martin Luther King Sr",
        "Hugo Chávez Frías",
        "Julio César Chávez",
        "Miguel Ángel Asturias",
    ]
)

#: Well-known names of the same thing in English, Spanish and Estonian (and the local name), as groups: where the
#: question is not about the name, any of them is the answer ("Odysseus" for ULYSSES, "Peipus" for Peipsi).
EQUIVALENT_NAMES: tuple[tuple[str, ...], ...] = (
    ("Ulysses", "Ulises", "Odysseus", "Odiseo"),
    ("Hercules", "Hércules", "Heracles", "Herakles", "Heraclés"),
    ("Achilles", "Aquiles", "Achilleus", "Ahhilleus"),
    ("Peipus", "Peipsi", "Chudskoye"),
    ("Munich", "Múnich", "München", "Munchen"),
    ("Cologne", "Colonia", "Köln", "Koln"),
    ("Vienna", "Viena", "Viin", "Wien"),
    ("Prague", "Praga", "Praha"),
    ("Warsaw", "Varsovia", "Varssavi", "Warszawa"),
    ("Moscow", "Moscú", "Moskva"),
    ("Lisbon", "Lisboa", "Lissabon"),
    ("Florence", "Florencia", "Firenze"),
    ("Venice", "Venecia", "Veneetsia", "Venezia"),
    ("Naples", "Nápoles", "Napoli"),
    ("Copenhagen", "Copenhague", "Kopenhaagen", "København"),
    ("Geneva", "Ginebra", "Genf", "Genève"),
    ("Brussels", "Bruselas", "Brüssel", "Bruxelles"),
    ("Beijing", "Pekín", "Peking", "Pekin"),
    ("Athens", "Atenas", "Ateena"),
    ("London", "Londres"),
    ("Germany", "Alemania", "Saksamaa", "Deutschland"),
    ("Finland", "Finlandia", "Soome", "Suomi"),
    ("Sweden", "Suecia", "Rootsi", "Sverige"),
    ("Latvia", "Letonia", "Läti"),
    ("Lithuania", "Lituania", "Leedu"),
    ("Estonia", "Eesti"),
    ("Russia", "Rusia", "Venemaa"),
    ("Hungary", "Hungría", "Ungari"),
    ("Switzerland", "Suiza", "Šveits"),
    ("Greece", "Grecia", "Kreeka"),
    ("Crete", "Creta", "Kreeta"),
    ("Cyprus", "Chipre", "Küpros"),
    ("Egypt", "Egipto", "Egiptus"),
    ("Danube", "Danubio", "Doonau", "Donau"),
    ("Nile", "Nilo", "Niilus"),
    ("Aristotle", "Aristóteles", "Aristoteles"),
    ("Plato", "Platón", "Platon"),
    ("Homer", "Homero", "Homeros"),
    ("Mercury", "Mercurio", "Merkuur"),
    ("Mars", "Marte"),
    ("Saturn", "Saturno"),
    ("Neptune", "Neptuno", "Neptuun"),
    ("Pluto", "Plutón", "Pluuto"),
)
#: Words of a question that ask for the name itself: then another language's name is not the answer.
NAME_WORDS = frozenset(
    [
        "name",
        "named",
        "call",
        "calls",
        "called",
        "spelled",
        "spelt",
        "nombre",
        "llama",
        "llaman",
        "llamaba",
        "denomina",
        "nimi",
        "nime",
        "nimetus",
        "nimetatakse",
        "kutsutakse",
        "hüütakse",
    ]
)
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
