"""Every screen's own word tables (``i18n/<language>.json`` beside a terminal or a command) speak every language
the site does, with the same keys and the same {placeholders} as English, and no empty text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import mindtable
from mindtable.kit.words import LANGUAGES

PACKAGE = Path(mindtable.__file__).resolve().parent
#: The screens' tables: every i18n folder of the package but the web pages' (they have their own tests).
FOLDERS = sorted(p for p in PACKAGE.rglob("i18n") if p.is_dir() and "static" not in p.parts)


def table(folder: Path, language: str) -> dict[str, str]:
    data = json.loads((folder / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict) and all(isinstance(v, str) for v in data.values()), folder / f"{language}.json"
    return data


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_the_screens_have_word_tables() -> None:
    names = {folder.relative_to(PACKAGE).as_posix() for folder in FOLDERS}
    assert {"cli/i18n", "games/eesti_malumang/i18n"} <= names


def base(key: str) -> str:
    """A key without its plural form (``#one``/``#other``): languages choose their own plural forms."""
    return key.split("#")[0]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.relative_to(PACKAGE).as_posix())
@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_each_language_has_every_key_with_its_placeholders(folder: Path, language: str) -> None:
    english, other = table(folder, "en"), table(folder, language)
    assert sorted({base(k) for k in english} - {base(k) for k in other}) == [], f"{language} lacks these keys"
    assert sorted({base(k) for k in other} - {base(k) for k in english}) == [], f"{language} has keys English lacks"
    for key, text in other.items():
        assert text.strip(), f"{folder.name}/{language}.json {key}: empty"
        forms = [english[k] for k in english if base(k) == base(key)]
        allowed = set().union(*(placeholders(t) for t in forms)) | {"n"}  # a form may say the count
        assert placeholders(text) <= allowed, f"{language} {key}: {placeholders(text) - allowed} not in English"
        assert placeholders(text) >= set.intersection(*(placeholders(t) - {"n"} for t in forms)), f"{language} {key}"
