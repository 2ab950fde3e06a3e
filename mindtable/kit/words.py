"""A message catalogue for a surface that speaks the room's language: ``key -> text with {parameters}``.

The tables are the JSON files the web pages already use (``<folder>/<language>.json``: a game page's
``i18n`` folder, the site's) and any a game adds for its terminal; several folders are layered, the first
that has a key wins, and English fills in a key a language lacks. Plural forms follow the pages' convention:
``key#one`` / ``key#other`` chosen by the parameter ``n`` (or ``count``). A refusal is said from its code
(``error.<code>``) and its parameters, never from the English message — which stays the fallback when no table
knows the code.

>>> say = Catalogue("et", [{"hello": "Tere, {name}!", "cards#one": "{n} kaart", "cards#other": "{n} kaarti"}])
>>> say("hello", name="Mari"), say("cards", n=1), say("cards", n=3)
('Tere, Mari!', '1 kaart', '3 kaarti')
>>> say("missing")  # an unknown key comes back as itself, as on the pages
'missing'
>>> from mindtable.core.errors import IllegalAction
>>> say.refusal(IllegalAction("no_cards", "seat 1 has no card left", params={"seat": 1}))  # no words: English
'seat 1 has no card left'
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from mindtable.core.errors import IllegalAction

#: The languages every surface speaks: the site's own tables (``mindtable/web/static/i18n/<language>.json``).
LANGUAGES = ("en", "es", "et")
#: The site's own tables are in ``i18n`` here; each game page's are in its own package (:func:`page_folder`).
STATIC_I18N = Path(__file__).resolve().parents[1] / "web" / "static"
#: The words of the kit's terminal loop (:mod:`mindtable.kit.terminal`), under a surface's and a game page's own.
KIT_I18N = Path(__file__).resolve().parent / "i18n"
#: The parameters that choose a plural form, in order (as on the pages).
COUNT_PARAMS = ("n", "count")
_PARAM = re.compile(r"\{(\w+)\}")


def plural_one_other(n: float) -> str:
    """The plural category for English, Estonian and Spanish: ``one`` for exactly 1, else ``other``."""
    return "one" if n == 1 else "other"


@cache
def _read_table(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError(f"{path}: a message table is a JSON object of texts")
    return data


def read_tables(folders: Sequence[Path], language: str) -> list[dict[str, str]]:
    """The tables ``<folder>/<language>.json`` of each folder, in order (a missing file is an empty table)."""
    return [_read_table(Path(folder) / f"{language}.json") for folder in folders]


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class Catalogue:
    """The words of one language: ``say(key, **params)``; ``fallback`` (English) answers a key it lacks."""

    def __init__(
        self,
        language: str,
        tables: Sequence[Mapping[str, str]],
        fallback: Catalogue | None = None,
        plural: Callable[[float], str] = plural_one_other,
    ) -> None:
        self.language = language
        self._tables = list(tables)
        self._fallback = fallback
        self._plural = plural

    @classmethod
    def load(cls, folders: Sequence[Path], language: str, fallback_language: str | None = "en") -> Catalogue:
        """The catalogue of ``language`` from ``<folder>/<language>.json`` in each folder (the first folder that
        has a key wins), backed by ``fallback_language``'s."""
        fallback = None
        if fallback_language is not None and fallback_language != language:
            fallback = cls(fallback_language, read_tables(folders, fallback_language))
        return cls(language, read_tables(folders, language), fallback)

    def _lookup(self, key: str) -> str | None:
        for table in self._tables:
            if key in table:
                return table[key]
        return None

    def has(self, key: str, *, own: bool = False) -> bool:
        """Whether the catalogue has words for ``key`` (``own``: in this language, not from the fallback)."""
        if self._lookup(key) is not None or self._lookup(f"{key}#other") is not None:
            return True
        return not own and self._fallback is not None and self._fallback.has(key)

    def _form(self, key: str, params: Mapping[str, Any]) -> str | None:
        count = next((params[p] for p in COUNT_PARAMS if isinstance(params.get(p), (int, float))), None)
        if count is not None:
            for form in (f"{key}#{self._plural(count)}", f"{key}#other"):
                text = self._lookup(form)
                if text is not None:
                    return text
        return self._lookup(key)

    def __call__(self, key: str, **params: Any) -> str:
        """The words for ``key`` with its ``{parameters}`` filled in (a list is joined with commas; a parameter
        not given stays as ``{name}``); an unknown key comes back as itself."""
        text = self._form(key, params)
        if text is None:
            return self._fallback(key, **params) if self._fallback is not None else key
        if not params:
            return text
        return _fill(text, {name: _text(value) for name, value in params.items()})

    def refusal(self, exc: IllegalAction, **params: Any) -> str:
        """A refusal in words: ``error.<code>`` with the refusal's parameters (``params`` replace some, e.g. a
        seat as a name); the English message when no table has the code."""
        key = f"error.{exc.code}"
        if not self.has(key):
            return exc.message
        return self(key, **{**exc.params, **params})


def surface_language(
    given: str | None = None, options: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """The language a terminal speaks: ``given`` (``--language``), else the match's ``language`` option (the
    language its questions are in), else the person's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as the
    C library reads them), else English. An unknown ``given`` raises ``ValueError`` naming the allowed ones.

    >>> surface_language("es"), surface_language(None, {"language": "et"})
    ('es', 'et')
    >>> surface_language(None, {}, {"LANG": "es_MX.UTF-8"})
    'es'
    >>> surface_language(None, {}, {"LC_ALL": "C", "LANG": "et_EE.UTF-8"}), surface_language(None, None, {})
    ('en', 'en')
    """
    if given is not None:
        if given not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {given!r}")
        return given
    chosen = (options or {}).get("language")
    if chosen in LANGUAGES:
        return str(chosen)
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:  # the first one set decides, as for the C library: "C" or "POSIX" means English
            code = value.split(".")[0].split("_")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def screen_language(language: str | None, options: Mapping[str, Any] | None = None) -> str:
    """The language a screen called from Python speaks: ``language``, else the match's ``language`` option, else
    English. (Only ``mindtable play``/``replay`` read the person's locale, through :func:`surface_language`: a
    screen driven by a program or a test never depends on the machine's settings.)

    >>> screen_language(None, {"language": "es"}), screen_language("et", {"language": "es"}), screen_language(None)
    ('es', 'et', 'en')
    """
    return surface_language(language, options, environ={})


@cache
def surface_words(language: str, *folders: Path, web_module: str | None = None) -> Catalogue:
    """A surface's words in ``language``: its own tables (``folders``, e.g. a terminal's ``i18n`` beside its
    module), then the game page's (``web_module``), the kit's terminal loop's and the site's, English filling in
    what a language lacks."""
    layered = [*folders]
    if web_module is not None:
        page = page_folder(web_module)
        if page is not None:
            layered.append(page / "i18n")
    layered += [KIT_I18N, STATIC_I18N / "i18n"]
    return Catalogue.load(layered, language)


@cache
def page_folder(web_module: str) -> Path | None:
    """The folder of the registered game page ``web_module`` (:meth:`mindtable.core.game.Game.web_folder`): a
    game's words are read from its own package, wherever it is installed."""
    from mindtable.core.registry import game_ids, get_game

    for game_id in game_ids():
        try:
            game = get_game(game_id)
        except Exception:  # a broken plugin has no words to give
            continue
        if game.web_module == web_module:
            return game.web_folder()
    return None


def _fill(text: str, params: Mapping[str, str]) -> str:
    return _PARAM.sub(lambda m: params.get(m.group(1), m.group(0)), text)
