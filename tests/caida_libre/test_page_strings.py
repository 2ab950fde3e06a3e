"""The Caída Libre page speaks Spanish, English and Estonian: every string of its page in each language, with the
same {placeholders} (the site's et.json is being completed elsewhere; this checks the page's own file)."""

from __future__ import annotations

import json
import re

import pytest

from mindtable.kit.words import page_folder

FOLDER = page_folder("caida-libre")


def strings(lang: str) -> dict[str, str]:
    return json.loads((FOLDER / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["es", "et"])
def test_every_page_string_is_translated_with_its_placeholders(lang: str) -> None:
    english, other = strings("en"), strings(lang)
    assert sorted(set(english) ^ set(other)) == []
    for key, text in other.items():
        assert text.strip(), f"{lang} {key}: empty"
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", english[key])), f"{lang} {key}"


def test_every_key_the_page_uses_is_in_its_strings() -> None:
    module = (FOLDER / "index.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([\w.]+)"', module))
    prefixes = set(re.findall(r"\bt\(`([\w.]+)\$\{", module))
    english = strings("en")
    assert sorted(used - set(english)) == []
    for prefix in prefixes:
        assert any(key.startswith(prefix) for key in english), prefix
    assert {"quiz.true", "quiz.false", "quiz.penalty", "quiz.reader_card"} <= set(strings("et"))
