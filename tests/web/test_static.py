"""The static web tree: the shell stays game-agnostic, every page string exists in every language (en, es, et)
and the language switch offers exactly those, and every game folder provides the module interface of
docs/web.md. (No browser needed.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mindtable.core.registry import game_ids, get_game
from mindtable.kit.words import page_folder
from mindtable.web import STATIC_DIR

LANGUAGES = ("en", "es", "et")
#: Every registered game's page folder (each from its own package).
GAME_FOLDERS = sorted(
    {folder for g in game_ids() if (folder := get_game(g).web_folder()) is not None}, key=lambda p: p.parent.name
)


def shell_files() -> list[Path]:
    return [p for p in STATIC_DIR.rglob("*") if p.suffix in (".html", ".js", ".css")]


def load(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and all(isinstance(v, str) for v in data.values()), f"{path}: not a string map"
    return data


def test_the_shell_names_no_game() -> None:
    words = set(game_ids()) | {game_id.replace("-", "_") for game_id in game_ids()}
    offenders = [
        f"{path.relative_to(STATIC_DIR)}: {word}"
        for path in shell_files()
        for word in words
        if word in path.read_text(encoding="utf-8").lower()
    ]
    assert offenders == []


def test_the_language_switch_offers_exactly_the_languages_with_strings() -> None:
    """A language is offered (js/i18n.js LANGUAGES) when, and only when, the shell and every game page have it."""
    source = (STATIC_DIR / "js" / "i18n.js").read_text(encoding="utf-8")
    found = re.search(r"export const LANGUAGES = \{([^}]*)\}", source)
    assert found, "js/i18n.js has no LANGUAGES table"
    offered = set(re.findall(r"(\w+):", found.group(1)))
    assert offered == set(LANGUAGES)
    for folder in [STATIC_DIR, *GAME_FOLDERS]:
        have = {p.stem for p in (folder / "i18n").glob("*.json")}
        assert offered <= have, f"{folder.name}: no strings for {sorted(offered - have)}"


@pytest.mark.parametrize("folder", [STATIC_DIR, *GAME_FOLDERS], ids=lambda p: p.name)
def test_every_language_has_the_same_strings(folder: Path) -> None:
    tables = {lang: load(folder / "i18n" / f"{lang}.json") for lang in LANGUAGES}
    english = set(tables["en"])
    for lang, table in tables.items():
        assert set(table) == english, f"{folder.name} {lang}: keys differ from en: {sorted(set(table) ^ english)}"
        empty = [key for key, text in table.items() if not text.strip()]
        assert empty == [], f"{folder.name} {lang}: empty strings {empty}"
        for key, text in table.items():
            placeholders = set(re.findall(r"\{(\w+)\}", text))
            assert placeholders == set(re.findall(r"\{(\w+)\}", tables["en"][key])), f"{lang} {key}: placeholders"


def test_every_string_the_shell_uses_exists() -> None:
    english = load(STATIC_DIR / "i18n" / "en.json")
    used: set[str] = set()
    for path in shell_files():
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'data-i18n(?:-placeholder|-title|-aria)?="([\w.]+)"', text))
        used |= set(re.findall(r'\bt\("([\w.]+)"', text))
    missing = sorted(key for key in used if key not in english and f"{key}#other" not in english)
    assert missing == []


@pytest.mark.parametrize("folder", GAME_FOLDERS, ids=lambda p: p.name)
def test_game_folders_provide_the_module_interface(folder: Path) -> None:
    module = (folder / "index.js").read_text(encoding="utf-8")
    assert re.search(r"^export function mount\(root, ctx\)", module, re.MULTILINE)
    assert (folder / "style.css").is_file()
    known = load(folder / "i18n" / "en.json") | load(STATIC_DIR / "i18n" / "en.json")  # the shell's too
    used = set(re.findall(r'\bt\("([\w.]+)"', module))
    assert sorted(key for key in used if key not in known and f"{key}#other" not in known) == []


def test_the_mind_points_at_its_folder() -> None:
    web_module = get_game("the-mind").web_module
    assert web_module is not None
    assert (page_folder(web_module) / "index.js").is_file()
    for page in ("index.html", "room.html", "replay.html"):
        assert (STATIC_DIR / page).is_file()


def test_the_estonian_pages_throw_the_die_rather_than_roll_it() -> None:
    """In Estonian a die is thrown ("viska täringut"); "veereta" (roll) is a calque from English."""
    offenders = [
        f"{folder.name}: {key}"
        for folder in [STATIC_DIR, *GAME_FOLDERS]
        for key, text in load(folder / "i18n" / "et.json").items()
        if re.search(r"\bveereta", text, re.IGNORECASE)
    ]
    assert offenders == []


@pytest.mark.parametrize("game_id", [g for g in game_ids() if get_game(g).web_module])
def test_every_room_option_and_its_choices_have_words_in_every_language(game_id: str) -> None:
    """The room form labels each option and each named choice in the page's language (never a raw "lenient" or
    "countdown_seconds" on a Spanish page): the game page's words, else the shell's (shared judge options)."""
    game = get_game(game_id)
    for lang in LANGUAGES:
        page_path = page_folder(str(game.web_module)) / "i18n" / f"{lang}.json"
        words = {**load(STATIC_DIR / "i18n" / f"{lang}.json"), **(load(page_path) if page_path.exists() else {})}
        missing = [f"option.{o.name}" for o in game.option_schema if f"option.{o.name}" not in words]
        missing += [
            f"option.{o.name}.{choice}"
            for o in game.option_schema
            for choice in o.choices or ()
            if isinstance(choice, str) and not choice.isdigit() and f"option.{o.name}.{choice}" not in words
        ]
        assert missing == [], f"{game_id} {lang}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_category_of_the_shipped_banks_is_named_in_the_sites_tables(lang: str) -> None:
    """A quiz card's heading says its category (js/quiz.js ``quiz.category.<id>``): a game that deals mindtable's
    shipped banks (a plugin such as the example's) shows them in the page's words, not as the bank's ids."""
    from mindtable.trivia.bank import load_bank, shipped_bank_dir

    categories = {q.category for path in shipped_bank_dir().glob("*/*.yaml") for q in load_bank(path).questions}
    assert {"geography", "natural science", "sport"} <= categories
    words = load(STATIC_DIR / "i18n" / f"{lang}.json")
    assert sorted(c for c in categories if f"quiz.category.{c}" not in words) == []
