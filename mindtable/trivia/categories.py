"""One list of question categories, with their names in every language, shared by every bank and quiz game.

Banks name categories in many ways ("science", "natural science", "Science & Nature", "loodusteadus",
"Ciencia y naturaleza"). :func:`category_key` turns any of them into one key of :data:`CATEGORIES`, and
:func:`category_name` gives the key's name in English, Spanish or Estonian. A quiz game maps these keys to its
own topics with a :class:`TopicMap`, which the game declares (see ``docs/trivia.md``).

>>> category_key("Natural Science"), category_key("Ciencia y naturaleza"), category_key("loodusteadus")
('science', 'science', 'science')
>>> category_name("sport", "et")
'Sport'
>>> category_key("Entertainment: Video Games")
'entertainment'
>>> category_key("knitting") is None
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

#: key -> names (en, es, et). The first eight are the broad categories; the rest are narrower ones that map
#: onto them when a game has no topic of their own.
CATEGORIES: dict[str, dict[str, str]] = {
    "history": {"en": "History", "es": "Historia", "et": "Ajalugu"},
    "geography": {"en": "Geography", "es": "Geografía", "et": "Geograafia"},
    "science": {"en": "Science and Nature", "es": "Ciencia y naturaleza", "et": "Loodusteadus"},
    "arts": {"en": "The Arts", "es": "Las artes", "et": "Kunstid"},
    "literature": {"en": "Literature", "es": "Literatura", "et": "Kirjandus"},
    "entertainment": {"en": "Entertainment and Shows", "es": "Entretenimiento y espectáculos", "et": "Meelelahutus"},
    "sport": {"en": "Sport", "es": "Deportes", "et": "Sport"},
    "culture": {"en": "Culture", "es": "Cultura", "et": "Kultuur"},
    "varia": {"en": "Miscellany", "es": "Cambalache", "et": "Varia"},
    "music": {"en": "Music", "es": "Música", "et": "Muusika"},
    "film": {"en": "Film and TV", "es": "Cine y televisión", "et": "Film ja televisioon"},
    "games": {"en": "Games and Comics", "es": "Juegos e historietas", "et": "Mängud ja koomiksid"},
    "technology": {"en": "Technology", "es": "Tecnología", "et": "Tehnoloogia"},
    "language": {"en": "Language", "es": "Lengua", "et": "Keel"},
    "food": {"en": "Food and Drink", "es": "Comida y bebida", "et": "Toit ja jook"},
    "mythology": {"en": "Mythology", "es": "Mitología", "et": "Mütoloogia"},
    "politics": {"en": "Politics", "es": "Política", "et": "Poliitika"},
}

#: Other spellings (any language, compared without case, accents or punctuation) -> key.
ALIASES: dict[str, str] = {
    "natural science": "science",
    "nature": "science",
    "nature and science": "science",
    "science nature": "science",
    "science and nature": "science",
    "science computers": "technology",
    "science gadgets": "technology",
    "science mathematics": "science",
    "mathematics": "science",
    "maths": "science",
    "math": "science",
    "animals": "science",
    "ciencia": "science",
    "ciencias": "science",
    "naturaleza": "science",
    "loodus": "science",
    "history geography": "history",
    "history and geography": "history",
    "historia y geografia": "history",
    "sports": "sport",
    "deporte": "sport",
    "deportes": "sport",
    "art": "arts",
    "the arts": "arts",
    "arte": "arts",
    "artes": "arts",
    "las artes": "arts",
    "kunst": "arts",
    "entertainment and shows": "entertainment",
    "entretenimiento": "entertainment",
    "espectaculos": "entertainment",
    "meelelahutus": "entertainment",
    "celebrities": "entertainment",
    "entertainment books": "literature",
    "books": "literature",
    "entertainment film": "film",
    "entertainment television": "film",
    "television": "film",
    "tv": "film",
    "cine": "film",
    "entertainment music": "music",
    "entertainment musicals theatres": "entertainment",
    "entertainment video games": "entertainment",
    "entertainment board games": "games",
    "entertainment comics": "games",
    "entertainment japanese anime manga": "games",
    "entertainment cartoon animations": "film",
    "vehicles": "technology",
    "general knowledge": "varia",
    "general": "varia",
    "miscellany": "varia",
    "miscellaneous": "varia",
    "misc": "varia",
    "cambalache": "varia",
    "varios": "varia",
    "kultuur": "culture",
    "cultura": "culture",
    "ajalugu": "history",
    "historia": "history",
    "geograafia": "geography",
    "geografia": "geography",
    "kirjandus": "literature",
    "literatura": "literature",
    "muusika": "music",
    "musica": "music",
}


def _fold(name: str) -> str:
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^a-z0-9]+", " ", text.replace("&", " and "))
    return " ".join(text.split())


_LOOKUP: dict[str, str] = {}
for _key, _names in CATEGORIES.items():
    _LOOKUP[_fold(_key)] = _key
    for _name in _names.values():
        _LOOKUP.setdefault(_fold(_name), _key)
for _alias, _key in ALIASES.items():
    _LOOKUP[_fold(_alias)] = _key


def category_key(name: str) -> str | None:
    """The key of :data:`CATEGORIES` that ``name`` means (any language, any case), or ``None``."""
    folded = _fold(name)
    if folded in _LOOKUP:
        return _LOOKUP[folded]
    without_and = folded.replace(" and ", " ")
    return _LOOKUP.get(without_and)


def category_name(key: str, language: str = "en") -> str:
    """The name of the category ``key`` in ``language`` (English when there is no translation)."""
    names = CATEGORIES.get(key)
    if names is None:
        return key
    return names.get(language) or names["en"]


@dataclass(frozen=True)
class TopicMap:
    """How a game's topics are fed from the categories: ``topics`` in the game's order, ``feeds`` category key
    -> topic (categories not listed go to ``fallback``, ``None`` meaning "not used"), and the topic names.

    A game declares its own (in its :class:`~mindtable.trivia.sets.GameProfile`); trivia knows no game.

    >>> six = TopicMap(("history", "science", "varia"), {"geography": "history"}, fallback="varia")
    >>> six.topic_of("Science & Nature"), six.topic_of("geography"), six.topic_of("Film")
    ('science', 'history', 'varia')
    """

    topics: tuple[str, ...]
    feeds: Mapping[str, str]
    fallback: str | None = None
    names: Mapping[str, Mapping[str, str]] | None = None

    def topic_of(self, category: str) -> str | None:
        """The game's topic for a category written any way (the game's own topic names count too)."""
        if category in self.topics:
            return category
        key = category_key(category) if category else None
        if key is None:
            return self.fallback
        if key in self.topics:
            return key
        return self.feeds.get(key, self.fallback)

    def topic_name(self, topic: str, language: str = "en") -> str:
        names = (self.names or {}).get(topic)
        if names:
            return names.get(language) or names.get("en") or topic
        return category_name(topic, language)
